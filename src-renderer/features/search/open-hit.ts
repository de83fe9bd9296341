import type { SearchHit } from '@shared/ipc/contract/search';
import { goToSession } from '../../ipc/attention';
import { openProject, openSession } from '../../ipc/actions';
import { showToast, useStore } from '../../stores/store';
import { requestScrollTo } from '../transcript/scroll-target';

/** How long a sub-agent's card is waited for (its session may still be loading). */
const CARD_WAIT_MS = 15_000;

/**
 * Opens the session a search result is in, wherever it ran (its project first when that is not the
 * one on screen), and asks its transcript to scroll to the message. The request is made first: the
 * transcript takes it up whenever its rows hold the message (it may still be loading).
 *
 * A piece of a sub-agent's work scrolls to the Agent call that started it and opens that call's card
 * (which shows the sub-agent's transcript); a teammate's opens the session's team view.
 */
export async function openHit(hit: SearchHit): Promise<void> {
  if (hit.agent === null || hit.agent.call)
    requestScrollTo({ sessionId: hit.sessionId, itemId: hit.itemId, toolUseId: hit.toolUseId });
  const opened = await openHitSession(hit);
  if (!opened || hit.agent === null) return;
  if (hit.agent.call) openAgentCards(hit.agent.path);
  else useStore.getState().setTeamViewOpen(hit.sessionId, true);
}

async function openHitSession(hit: SearchHit): Promise<boolean> {
  const state = useStore.getState();
  if (state.project?.id === hit.projectId) {
    await openSession(hit.sessionId);
    return true;
  }
  if (state.openProjects[hit.projectId]) {
    await goToSession(hit.projectId, hit.sessionId);
    return true;
  }
  if (hit.projectPath === null || !(await openProject(hit.projectPath))) {
    showToast(`Could not open the project of “${hit.sessionTitle}”.`);
    return false;
  }
  await openSession(hit.sessionId);
  return true;
}

/**
 * Opens the sub-agent's card once the transcript has drawn it (after the jump to its call), and for a
 * nested one each card on the way down (a card's sub-agents are drawn inside it once it is open).
 * The card is a <details>: opening it is what a click on it does (it then fetches the transcript).
 */
function openAgentCards(path: readonly string[]): void {
  const until = Date.now() + CARD_WAIT_MS;
  let next = 0;
  const attempt = () => {
    while (next < path.length) {
      const card = document.querySelector<HTMLDetailsElement>(
        `details.agent-card[data-agent-id="${CSS.escape(path[next] ?? '')}"]`,
      );
      if (!card) break;
      card.open = true;
      next++;
    }
    if (next < path.length && Date.now() < until) setTimeout(attempt, 100);
  };
  attempt();
}
