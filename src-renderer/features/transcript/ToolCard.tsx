import { memo } from 'react';
import type { ToolDisplay, ToolResultBlock, ToolUseBlock } from '@shared/domain/messages';
import { useToolProgress, useToolResult } from '../../stores/selectors';
import { DiffView } from './DiffView';
import { displaySummary, formatDuration, toolSummary } from './tool-views';

export function resultText(result: ToolResultBlock): string {
  if (typeof result.content === 'string') return result.content;
  return result.content.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n');
}

function TodoView({ display }: { display: Extract<ToolDisplay, { kind: 'todos' }> }) {
  return (
    <ul className="todos">
      {display.todos.map((t, i) => (
        <li key={i} className={`todo todo-${t.status}`}>
          {t.status === 'completed' ? '☑' : t.status === 'in_progress' ? '▶' : '☐'} {t.content}
        </li>
      ))}
    </ul>
  );
}

/**
 * A tool call in the transcript: one compact line (tool, what it works on, state, duration) that
 * expands to the input, live output and result. Edits show their diff; Read shows the line range.
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
  const state = result ? (result.is_error ? 'error' : 'done') : running ? 'running' : 'pending';
  const display = result?.meta?.display;
  const detail = displaySummary(display);
  return (
    <details
      className={`tool-card tool-${state}`}
      data-tool={block.name}
      data-state={state}
      open={display?.kind === 'diff' || display?.kind === 'todos' ? true : undefined}
    >
      <summary>
        <span className="tool-state" aria-hidden="true">
          {state === 'done' ? '✓' : state === 'error' ? '✗' : state === 'running' ? '…' : '·'}
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
          <DiffView lines={display.lines} label={`Changes to ${display.path}`} />
        ) : null}
        {display?.kind === 'todos' ? <TodoView display={display} /> : null}
        <details
          className="tool-section tool-input"
          open={
            display === undefined || (display.kind !== 'diff' && display.kind !== 'todos') ? true : undefined
          }
        >
          <summary className="tool-label">Input</summary>
          <pre>{JSON.stringify(block.input, null, 2)}</pre>
        </details>
        {progress && !result ? (
          <div className="tool-section">
            <div className="tool-label">Output so far</div>
            <pre className="tool-output">{progress}</pre>
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
