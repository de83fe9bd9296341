import type { NoticeItem } from '@shared/domain/messages';
import type { HookRunRecord } from '../hooks/dispatch';
import { hookNote } from '../hooks/notes';
import { capOutput, HOOK_OUTPUT_LIMIT } from '../hooks/output';

/** The runner has already cut its output (with its note); anything longer is cut here the same way. */
const CUT_NOTE = /\n… \[hook output cut: \d+ more characters over the [\d,]+-character limit\]$/;
function capped(text: string): string {
  const body = text.replace(CUT_NOTE, '');
  return body.length <= HOOK_OUTPUT_LIMIT ? text : capOutput(body);
}

/**
 * A hook run as the transcript's quiet note (hooks/notes.ts: event, what ran, outcome, duration),
 * carrying the run itself too, so the note can expand to the hook's stdout and stderr and show a block
 * or a failure for what it is.
 */
export function hookOutputNote(r: HookRunRecord): NoticeItem {
  return {
    ...hookNote(r),
    hook: {
      event: r.event,
      source: r.source,
      label: r.label,
      handlerType: r.handlerType,
      ...(r.toolName !== undefined ? { toolName: r.toolName } : {}),
      outcome: r.outcome,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      stdout: capped(r.stdout),
      stderr: capped(r.stderr),
      ...(r.problem !== undefined ? { problem: r.problem } : {}),
    },
  };
}

/** Hook runs waiting to be shown: the engine takes them between the turn's events. */
export class HookNoteQueue {
  private notes: NoticeItem[] = [];
  push(r: HookRunRecord): void {
    this.notes.push(hookOutputNote(r));
  }
  drain(): NoticeItem[] {
    const out = this.notes;
    this.notes = [];
    return out;
  }
}
