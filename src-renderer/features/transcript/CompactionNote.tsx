import { memo, useId, useState } from 'react';
import type { NoticeItem } from '@shared/domain/messages';
import './compaction-note.css';

type Compaction = NonNullable<NoticeItem['compaction']>;

/** The note's one line: what ran and what came of it. */
export function compactionHeadline(c: Compaction): string {
  if (!c.ok) {
    return c.breakerOpen
      ? 'Automatic compaction is off for this session'
      : `Compaction failed (${c.trigger})`;
  }
  if (c.trigger === 'snip') return 'Conversation snipped: the middle of a long history was dropped';
  const n = c.summarized;
  return n === null
    ? `Conversation compacted (${c.trigger})`
    : `Conversation compacted (${c.trigger}): ${n} message${n === 1 ? '' : 's'} summarized`;
}

/**
 * A compaction in the transcript: a quiet line that expands to the summary the conversation goes on
 * from; a failure stands out (warning), and the one that switched autocompact off says so.
 */
export const CompactionNote = memo(function CompactionNote({
  item,
  compaction,
}: {
  item: NoticeItem;
  compaction: Compaction;
}) {
  const [open, setOpen] = useState(false);
  const region = useId();
  const failed = !compaction.ok;
  return (
    <div
      className={`notice compaction-note ${failed ? 'notice-warning compaction-failed' : 'notice-info'}`}
      data-code={item.code}
      role={compaction.breakerOpen ? 'alert' : undefined}
    >
      <div className="compaction-line">
        <span className="compaction-headline">{compactionHeadline(compaction)}</span>
        {compaction.summary ? (
          <button
            type="button"
            className="link compaction-toggle"
            aria-expanded={open}
            aria-controls={region}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Hide summary' : 'Show summary'}
          </button>
        ) : null}
      </div>
      {failed ? <div className="compaction-detail">{item.text}</div> : null}
      {open && compaction.summary ? (
        <div id={region} className="compaction-summary" role="region" aria-label="Compaction summary">
          {compaction.summary}
        </div>
      ) : null}
    </div>
  );
});
