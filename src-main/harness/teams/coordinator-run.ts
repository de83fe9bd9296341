import type { ContentBlock } from '@shared/domain/messages';
import { addUsage } from '@shared/domain/usage';
import type { TurnResult } from '../engine/query-engine';
import type { AgentEvent } from '../events/agent-event';
import coordinatorText from './prompts/coordinator.md?raw';
import type { TeamManager } from './team-manager';

/** The coordinator's part of the system prompt. */
export const COORDINATOR_PROMPT = coordinatorText;

/** Mail-driven turns one run may take, so two agents writing to each other cannot run forever. */
const MAX_MAIL_TURNS = 100;

type TurnRunner = (
  prompt: string | ContentBlock[],
  options: { signal?: AbortSignal; tokenBudget?: number },
) => AsyncGenerator<AgentEvent, TurnResult>;

/** One result for a run of several turns: the last turn's outcome, the sums of the counts. */
function merge(a: TurnResult, b: TurnResult): TurnResult {
  return {
    ...b,
    numTurns: a.numTurns + b.numTurns,
    durationMs: a.durationMs + b.durationMs,
    durationApiMs: a.durationApiMs + b.durationApiMs,
    usage: addUsage(a.usage, b.usage),
    permissionDenials: [...a.permissionDenials, ...b.permissionDenials],
  };
}

/**
 * A coordinator's run: the turn asked for, then, while its team has written to it, another turn
 * with that mail as the message, so workers' results always reach it. With `waitForTeam` (print
 * mode) it also waits while workers are still working, until the team is quiet, it gave its
 * structured output, or the run is stopped.
 */
export async function* coordinatorRun(o: {
  team: TeamManager;
  turn: TurnRunner;
  prompt: string | ContentBlock[];
  options: { signal?: AbortSignal; tokenBudget?: number };
  waitForTeam: boolean;
}): AsyncGenerator<AgentEvent, TurnResult> {
  const { team, options } = o;
  // Mail left from before a restart is taken up now that the coordinator works again.
  team.wake();
  let result = yield* o.turn(o.prompt, options);
  for (let turns = 0; turns < MAX_MAIL_TURNS;) {
    if (options.signal?.aborted || result.terminal.reason !== 'completed') break;
    const mail = team.takeCoordinatorMail();
    if (mail === null) {
      if (!o.waitForTeam || team.output !== null || !team.busy()) break;
      await team.nextChange(options.signal);
      continue;
    }
    turns++;
    result = merge(result, yield* o.turn(mail, options));
  }
  return result;
}
