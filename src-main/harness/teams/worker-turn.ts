import type { TeamMessage } from '@shared/domain/team';
import { describeError } from '../../platform/errors';
import type { TurnResult } from '../engine/query-engine';
import type { AgentEvent } from '../events/agent-event';
import { workerPrompt } from './mail-format';
import type { BuiltWorker } from './types';

/** How a worker's turn went, in the words sent back to the coordinator. */
export interface TurnOutcome {
  report: string;
  failed: boolean;
}

/**
 * Runs one turn of a worker on the mail it was given, passing its events on, and never throws:
 * whatever happens becomes a report for the coordinator.
 */
export async function runWorkerTurn(o: {
  worker: () => BuiltWorker;
  mail: readonly TeamMessage[];
  signal: AbortSignal;
  onEvent: (e: AgentEvent) => void;
}): Promise<TurnOutcome> {
  let result: TurnResult;
  try {
    const turn = o.worker().run(workerPrompt(o.mail), { signal: o.signal });
    try {
      for (;;) {
        const next = await turn.next();
        if (next.done) {
          result = next.value;
          break;
        }
        o.onEvent(next.value);
      }
    } finally {
      // Left early (a listener threw): the engine still stops the turn and saves what it had.
      await turn.return(undefined as never);
    }
  } catch (error) {
    return { report: `I could not work on this: ${describeError(error)}`, failed: true };
  }
  const text = result.text.trim();
  switch (result.terminal.reason) {
    case 'completed':
      return { report: text || '(I finished without a written answer.)', failed: false };
    case 'aborted':
      return {
        report: `I was stopped before I finished.${text ? `\nWhere I had got to:\n${text}` : ''}`,
        failed: false,
      };
    default:
      return {
        report: `I could not finish (${result.terminal.reason}): ${result.error?.message ?? result.terminal.detail}`,
        failed: true,
      };
  }
}
