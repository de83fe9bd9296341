import { randomUUID } from 'node:crypto';
import { messageText, type NoticeItem } from '@shared/domain/messages';
import type { LoopEvent } from '../loop/types';

/** What a reply the app died in says when the session is next opened. */
export const INTERRUPTED_BY_EXIT = 'Stopped — the app closed before the reply finished.';

export function notice(level: NoticeItem['level'], text: string, code: string): NoticeItem {
  return {
    kind: 'notice',
    id: randomUUID(),
    level,
    text,
    code,
    createdAt: new Date().toISOString(),
  };
}

/** A quiet line for the transcript about a recovery step, or null for plain turns. */
function describeTransition(e: Extract<LoopEvent, { type: 'transition' }>): string | null {
  return e.transition.reason === 'next_turn' ? null : `${e.transition.detail} (${e.transition.reason}).`;
}

/** The transcript note a loop event leaves (a recovery step, a retry, a fallback, an error, a compaction), if any. */
export function noteFor(e: LoopEvent): NoticeItem | null {
  switch (e.type) {
    case 'transition': {
      const text = describeTransition(e);
      return text ? notice('info', text, e.transition.reason) : null;
    }
    case 'retry':
      return notice(
        'info',
        `${e.error.message.split('.')[0] ?? 'API error'}; retrying in ${e.delayMs < 1000 ? `${Math.round(e.delayMs)} ms` : `${(e.delayMs / 1000).toFixed(1)} s`} (attempt ${e.attempt} of ${e.maxRetries}).`,
        'retry',
      );
    case 'fallback':
      return notice(
        'warning',
        `${e.from} is overloaded; switched to the fallback model ${e.to} for this turn.`,
        'fallback',
      );
    case 'error':
      return notice('error', e.error.message, e.error.code);
    case 'compaction':
      return {
        ...notice(
          e.ok ? 'info' : 'warning',
          e.detail,
          e.trigger === 'manual'
            ? e.ok
              ? 'compact'
              : 'compact_failed'
            : e.ok
              ? e.trigger === 'snip'
                ? 'snip'
                : 'autocompact'
              : e.breakerOpen
                ? 'autocompact_off'
                : 'autocompact_failed',
        ),
        compaction: {
          trigger: e.trigger,
          ok: e.ok,
          breakerOpen: e.breakerOpen,
          summarized: e.summarized ?? null,
          summary: e.summary ? messageText(e.summary.content) : null,
        },
      };
    default:
      return null;
  }
}
