import { memo } from 'react';
import { Check, Circle, LoaderCircle, Play, Square, SquareCheckBig, X } from 'lucide-react';
import type { ToolDisplay, ToolResultBlock, ToolUseBlock } from '@shared/domain/messages';
import { useToolProgress, useToolResult } from '../../stores/selectors';
import { useStore } from '../../stores/store';
import { DiffView } from './DiffView';
import { cardOpenByDefault, displaySummary, formatDuration, toolSummary, type CardState } from './tool-views';
import './tool-card.css';

export function resultText(result: ToolResultBlock): string {
  if (typeof result.content === 'string') return result.content;
  return result.content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
}

const ICON = { size: 14, strokeWidth: 2.25, 'aria-hidden': true } as const;

function TodoView({ display }: { display: Extract<ToolDisplay, { kind: 'todos' }> }) {
  return (
    <ul className="todos">
      {display.todos.map((t, i) => (
        <li key={i} className={`todo todo-${t.status}`}>
          {t.status === 'completed' ? (
            <SquareCheckBig {...ICON} />
          ) : t.status === 'in_progress' ? (
            <Play {...ICON} />
          ) : (
            <Square {...ICON} />
          )}{' '}
          {t.content}
        </li>
      ))}
    </ul>
  );
}

function StateIcon({ state }: { state: CardState }) {
  if (state === 'done') return <Check {...ICON} />;
  if (state === 'error') return <X {...ICON} />;
  if (state === 'running') return <LoaderCircle {...ICON} className="spin" />;
  return <Circle {...ICON} size={8} />;
}

/**
 * A tool call in the transcript: one compact line (tool, what it works on, state, duration) that
 * expands to the input, live output and result. Edits show their diff; Read shows the line range.
 * A running Bash call is open on its command and live output and folds once it is done, unless it
 * failed; a person's own toggle wins from then on.
 */
export const ToolCard = memo(function ToolCard({
  sessionId,
  agentId,
  block,
  running,
}: {
  sessionId: string;
  /** The agent that made the call (the session's id for its main agent). */
  agentId: string;
  block: ToolUseBlock;
  running: boolean;
}) {
  const result = useToolResult(sessionId, agentId, block.id);
  const progress = useToolProgress(sessionId, agentId, block.id);
  const state: CardState = result ? (result.is_error ? 'error' : 'done') : running ? 'running' : 'pending';
  const display = result?.meta?.display;
  const detail = displaySummary(display, block.input);
  // In the store, not in this card: the card unmounts when its row scrolls out of view.
  const toggled = useStore((s) => s.transcripts[sessionId]?.[agentId]?.toggles?.[block.id]);
  const open = toggled ?? cardOpenByDefault(block.name, state, display);
  const command =
    block.name === 'Bash' && typeof block.input['command'] === 'string' ? block.input['command'] : null;
  return (
    <details
      className={`tool-card tool-${state}`}
      data-tool={block.name}
      data-state={state}
      open={open}
      onToggle={(e) => {
        // React sets `open` itself when the default changes; only a differing state is the person's.
        const now = e.currentTarget.open;
        if (now !== open) useStore.getState().setToolOpen(sessionId, agentId, block.id, now);
      }}
    >
      <summary>
        <span className="tool-state" aria-hidden="true">
          <StateIcon state={state} />
        </span>
        <strong className="tool-name">{block.name}</strong>
        <span className="tool-target">{toolSummary(block)}</span>
        {detail ? <span className="tool-detail">{detail}</span> : null}
        {result?.meta ? (
          <span className="tool-duration">{formatDuration(result.meta.durationMs)}</span>
        ) : null}
        <span className="sr-only">{`, ${state}`}</span>
      </summary>
      <div className="tool-body">
        {display?.kind === 'diff' ? (
          <DiffView lines={display.lines} path={display.path} label={`Changes to ${display.path}`} />
        ) : null}
        {display?.kind === 'todos' ? <TodoView display={display} /> : null}
        {command !== null ? (
          <pre className="tool-command" aria-label="Command">
            <span aria-hidden="true">$ </span>
            {command}
          </pre>
        ) : (
          <details
            className="tool-section tool-input"
            open={
              display === undefined || (display.kind !== 'diff' && display.kind !== 'todos')
                ? true
                : undefined
            }
          >
            <summary className="tool-label">Input</summary>
            <pre>{JSON.stringify(block.input, null, 2)}</pre>
          </details>
        )}
        {progress && !result ? (
          <div className="tool-section">
            <div className="tool-label">Output so far</div>
            <pre className="tool-output tool-live">{progress}</pre>
          </div>
        ) : null}
        {result && display?.kind !== 'diff' && display?.kind !== 'todos' ? (
          <div className="tool-section">
            <div className="tool-label">{result.is_error ? 'Error' : 'Result'}</div>
            <pre className="tool-output">{resultText(result)}</pre>
          </div>
        ) : null}
        {result?.is_error && (display?.kind === 'diff' || display?.kind === 'todos') ? (
          <pre className="tool-output">{resultText(result)}</pre>
        ) : null}
        {result?.meta?.savedTo ? <p className="muted">Full output saved to {result.meta.savedTo}</p> : null}
      </div>
    </details>
  );
});
