import { memo, useId, useState } from 'react';
import type { NoticeItem } from '@shared/domain/messages';
import './hook-note.css';

type HookRun = NonNullable<NoticeItem['hook']>;

/**
 * How a run ended, for the eye and for words: a block or a failure gets an icon and a word besides its
 * colour (colour alone says nothing to some readers); a plain success stays quiet.
 */
export function hookVerdict(
  h: HookRun,
): { tone: 'ok' | 'blocked' | 'failed'; icon: string; word: string } | null {
  switch (h.outcome) {
    case 'block':
      return { tone: 'blocked', icon: '✕', word: 'Blocked' };
    case 'error':
      return { tone: 'failed', icon: '⚠', word: 'Failed' };
    case 'timeout':
      return { tone: 'failed', icon: '⚠', word: 'Timed out' };
    case 'skipped':
      return { tone: 'failed', icon: '⚠', word: 'Skipped' };
    default:
      return null;
  }
}

function Stream({ name, text }: { name: string; text: string }) {
  return (
    <div className="hook-stream">
      <div className="hook-stream-name">
        {name}
        {text === '' ? <span className="muted"> (empty)</span> : null}
      </div>
      {text === '' ? null : <pre>{text}</pre>}
    </div>
  );
}

/**
 * A hook run in the transcript: the quiet one-line note (event, what ran, outcome, duration) that
 * expands to the hook's stdout and stderr. Blocks and failures stand out.
 */
export const HookNote = memo(function HookNote({ item, hook }: { item: NoticeItem; hook: HookRun }) {
  const [open, setOpen] = useState(false);
  const region = useId();
  const verdict = hookVerdict(hook);
  const hasOutput = hook.stdout !== '' || hook.stderr !== '' || hook.problem !== undefined;
  return (
    <div
      className={`notice hook-note ${verdict ? `notice-warning hook-${verdict.tone}` : 'notice-info'}`}
      data-code={item.code}
      data-outcome={hook.outcome}
    >
      <div className="hook-note-line">
        {verdict ? (
          <strong className="hook-verdict">
            <span aria-hidden="true">{verdict.icon} </span>
            {verdict.word}
          </strong>
        ) : null}
        <span className="hook-note-text">{item.text}</span>
        {hasOutput ? (
          <button
            type="button"
            className="link hook-note-toggle"
            aria-expanded={open}
            aria-controls={region}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Hide output' : 'Show output'}
          </button>
        ) : (
          <span className="muted hook-note-quiet">no output</span>
        )}
      </div>
      {open ? (
        <div id={region} className="hook-note-output" role="region" aria-label={`${hook.event} hook output`}>
          <div className="muted hook-note-facts">
            {hook.handlerType} hook from {hook.source} settings
            {hook.exitCode !== null ? `, exit code ${hook.exitCode}` : ''}, {hook.durationMs} ms
          </div>
          {hook.problem !== undefined ? <div className="hook-note-problem">{hook.problem}</div> : null}
          <Stream name="stdout" text={hook.stdout} />
          <Stream name="stderr" text={hook.stderr} />
        </div>
      ) : null}
    </div>
  );
});
