import { randomUUID } from 'node:crypto';
import type { NoticeItem } from '@shared/domain/messages';
import type { HookRunRecord } from './dispatch';

const short = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function describe(r: HookRunRecord): string {
  switch (r.outcome) {
    case 'ok':
      return 'ok';
    case 'block':
      return `blocked${r.stderr.trim() ? `: ${short(r.stderr.trim())}` : ''}`;
    case 'async':
      return 'ran in the background';
    default:
      return r.problem ?? r.outcome;
  }
}

/**
 * A hook run as a quiet note for the transcript: event, what ran, outcome, duration. Failures are
 * warnings, so they stand out.
 */
export function hookNote(r: HookRunRecord): NoticeItem {
  const failed = r.outcome === 'error' || r.outcome === 'timeout' || r.outcome === 'skipped';
  return {
    kind: 'notice',
    id: randomUUID(),
    level: failed ? 'warning' : 'info',
    text: `${r.event} hook${r.toolName ? ` (${r.toolName})` : ''}: ${short(r.label)} — ${describe(r)}, ${r.durationMs} ms`,
    createdAt: new Date().toISOString(),
    code: 'hook',
  };
}

/** Hook runs waiting to be shown: the engine takes them between the turn's events. */
export class HookNoteQueue {
  private notes: NoticeItem[] = [];
  push(r: HookRunRecord): void {
    this.notes.push(hookNote(r));
  }
  drain(): NoticeItem[] {
    const out = this.notes;
    this.notes = [];
    return out;
  }
}
