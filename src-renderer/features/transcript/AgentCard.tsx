import { memo, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Check, Circle, LoaderCircle, X } from 'lucide-react';
import type { AgentState, AgentSummary } from '@shared/domain/agents';
import type { ToolDisplay, ToolUseBlock } from '@shared/domain/messages';
import { totalTokens } from '@shared/domain/usage';
import { loadAgentTranscript } from '../../ipc/actions';
import { useAgent, useAgentForCall, useAgentLatestText, useToolResult } from '../../stores/selectors';
import { useStore } from '../../stores/store';
import { AgentStateBadge, costText, tokensText, VerdictBadge } from './agent-views';
import { resultText } from './ToolCard';
import { formatDuration } from './tool-views';
import './agent-card.css';

const ICON = { size: 14, strokeWidth: 2.5, 'aria-hidden': true } as const;

/** The card's state at a glance, as the tool cards show theirs (the badge beside it says it in words). */
function AgentStateIcon({ state, live }: { state: AgentState | 'pending'; live: boolean }) {
  if (state === 'done') return <Check {...ICON} />;
  if (state === 'failed') return <X {...ICON} />;
  if (live) return <LoaderCircle {...ICON} className="spin" />;
  return <Circle {...ICON} size={8} />;
}

type AgentDisplay = Extract<ToolDisplay, { kind: 'agent' }>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The last line of what an agent wrote, for the collapsed card: while it streams, its newest words
 * (the line's tail, about one line's worth); once it has ended, how its answer begins.
 */
export function lastLine(text: string, live: boolean): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '');
  const line = lines.at(-1) ?? '';
  if (!live || line.length <= 120) return line;
  return `…${line.slice(-119)}`;
}

/** What the card shows, from the live summary when the window has it, else from the call's result. */
export function agentCardState(
  agent: AgentSummary | undefined,
  display: AgentDisplay | undefined,
  hasResult: boolean,
  isError: boolean,
  running: boolean,
): AgentState | 'pending' {
  if (agent) return agent.state;
  if (hasResult) return isError ? 'failed' : display?.background ? 'working' : 'done';
  return running ? 'pending' : 'failed';
}

/**
 * An Agent call in its parent's transcript: one collapsible card for the whole sub-agent — its name,
 * type and model, state, what it is doing now (its tool call in progress, or its latest text as it
 * streams), its own and rolled-up cost, and a Verification agent's PASS/FAIL. Expanded, it shows the
 * sub-agent's own transcript, fetched when the window does not hold it (after a reload).
 */
export const AgentCard = memo(function AgentCard({
  sessionId,
  agentId: parentId,
  block,
  running,
  Items,
}: {
  sessionId: string;
  /** The agent that made the call. */
  agentId: string;
  block: ToolUseBlock;
  running: boolean;
  /** Draws a transcript's items (the transcript's own component, passed in to keep imports one way). */
  Items: ComponentType<{ sessionId: string; agentId: string; working: boolean; empty?: ReactNode }>;
}) {
  const result = useToolResult(sessionId, parentId, block.id);
  const display = result?.meta?.display?.kind === 'agent' ? result.meta.display : undefined;
  const byCall = useAgentForCall(sessionId, block.id);
  const childId = byCall?.id ?? display?.agentId ?? null;
  const byId = useAgent(sessionId, childId);
  const agent = byId ?? byCall;
  const loaded = useStore((s) => (childId ? s.transcripts[sessionId]?.[childId] !== undefined : false));
  const costKind = useStore((s) => s.sessions[sessionId]?.costKind ?? 'priced');
  const latest = useAgentLatestText(sessionId, childId);
  const [open, setOpen] = useState(false);

  const state = agentCardState(agent, display, result !== undefined, result?.is_error === true, running);
  const live = state === 'working' || state === 'waiting';
  // A live agent's progress line needs its transcript; an ended one's only when opened.
  useEffect(() => {
    if (childId && !loaded && (open || live)) void loadAgentTranscript(sessionId, childId);
  }, [sessionId, childId, loaded, open, live]);

  const name = agent?.name ?? (str(block.input['description']) || 'Agent');
  const agentType = agent?.agentType ?? display?.agentType ?? (str(block.input['subagent_type']) || 'agent');
  const model = agent?.model ?? display?.model ?? str(block.input['model']);
  const verdict = agent?.verdict ?? display?.verdict ?? null;
  const reasons = agent?.verdictReasons ?? display?.verdictReasons ?? null;
  const own = agent?.costUsd ?? display?.costUsd;
  const total = agent?.totalCostUsd ?? display?.totalCostUsd;
  const tokens = agent ? totalTokens(agent.usage) : display?.totalTokens;
  const activity = live ? agent?.activity : null;
  const progress = activity ?? (latest ? lastLine(latest, live) : null);
  const calls = agent?.toolUseCount ?? display?.toolUseCount ?? 0;
  const background = display?.background === true || block.input['run_in_background'] === true;

  return (
    <details
      className={`tool-card agent-card agent-${state}`}
      data-tool="Agent"
      data-agent-state={state}
      data-agent-id={childId ?? undefined}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <span className="agent-line">
          <span className="tool-state" aria-hidden="true">
            <AgentStateIcon state={state} live={live} />
          </span>
          <strong className="agent-name">{name}</strong>
          <span className="agent-type">{agentType}</span>
          {model ? <span className="agent-model">{model}</span> : null}
          {background ? <span className="agent-tag">background</span> : null}
          <span className="spacer" />
          <AgentStateBadge state={state} />
          {verdict ? <VerdictBadge verdict={verdict} reasons={reasons} /> : null}
        </span>
        <span className="agent-meta">
          {own !== undefined || total !== undefined ? (
            <span
              className="agent-cost"
              data-testid="agent-cost"
              title={costText(own, total, costKind, true)}
            >
              {costText(own, total, costKind)}
            </span>
          ) : null}
          {tokens !== undefined ? <span className="agent-tokens">{tokensText(tokens)}</span> : null}
          {calls ? <span>{calls === 1 ? '1 tool call' : `${calls} tool calls`}</span> : null}
          {display?.durationMs !== undefined ? <span>{formatDuration(display.durationMs)}</span> : null}
        </span>
        {progress ? (
          <span className={`agent-progress${activity ? ' agent-activity' : ''}`} data-testid="agent-progress">
            {progress}
          </span>
        ) : null}
      </summary>
      {open ? (
        <div className="tool-body agent-body">
          <details className="tool-section">
            <summary className="tool-label">Prompt</summary>
            <pre>{str(block.input['prompt'])}</pre>
          </details>
          {verdict && reasons ? (
            <p className={`agent-verdict-reasons verdict-text-${verdict.toLowerCase()}`}>
              <strong>{verdict}:</strong> {reasons}
            </p>
          ) : null}
          <div className="agent-transcript" role="log" aria-label={`Transcript of ${name}`}>
            {childId === null ? (
              <p className="muted">{background ? 'Starting in the background…' : 'Starting…'}</p>
            ) : loaded ? (
              <Items
                sessionId={sessionId}
                agentId={childId}
                working={live}
                empty={<p className="muted">Nothing yet.</p>}
              />
            ) : (
              <p className="muted">Loading its transcript…</p>
            )}
          </div>
          {result?.is_error || (result && childId === null) ? (
            <div className="tool-section">
              <div className="tool-label">{result.is_error ? 'Error' : 'Result'}</div>
              <pre className="tool-output">{resultText(result)}</pre>
            </div>
          ) : null}
        </div>
      ) : null}
    </details>
  );
});
