import type { SearchHit } from '@shared/ipc/contract/search';
import { goToSession } from '../../ipc/attention';
import { openProject, openSession } from '../../ipc/actions';
import { showToast, useStore } from '../../stores/store';
import { requestScrollTo } from '../transcript/scroll-target';

/**
 * Opens the session a search result is in, wherever it ran (its project first when that is not the
 * one on screen), and asks its transcript to scroll to the message. The request is made first: the
 * transcript takes it up whenever its rows hold the message (it may still be loading).
 */
export async function openHit(hit: SearchHit): Promise<void> {
  requestScrollTo({ sessionId: hit.sessionId, itemId: hit.itemId, toolUseId: hit.toolUseId });
  const state = useStore.getState();
  if (state.project?.id === hit.projectId) {
    await openSession(hit.sessionId);
    return;
  }
  if (state.openProjects[hit.projectId]) {
    await goToSession(hit.projectId, hit.sessionId);
    return;
  }
  if (hit.projectPath === null || !(await openProject(hit.projectPath))) {
    showToast(`Could not open the project of “${hit.sessionTitle}”.`);
    return;
  }
  await openSession(hit.sessionId);
}
