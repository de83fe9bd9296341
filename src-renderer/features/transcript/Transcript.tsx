import { memo, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import {
  messageText,
  type MessageItem,
  type NoticeItem,
  type ToolResultBlock,
  type ToolUseBlock,
  type TranscriptItem,
} from '@shared/domain/messages';
import { isWorking } from '@shared/domain/session';
import { useToolResults, useTranscriptItems } from '../../stores/selectors';
import { useStore } from '../../stores/store';
import { AgentCard } from './AgentCard';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';
import { foldBlocks, foldedCalls, foldTranscript } from './fold';

type Results = Record<string, ToolResultBlock> | undefined;

/** Whose transcript a piece belongs to: the session, and the agent in it (the session's id for its main agent). */
interface Scope {
  sessionId: string;
  agentId: string;
}

/** A run of calls that only read, searched or listed: one line ("Read 4 files, searched 2 patterns") that expands. */
function QuietFold({
  scope,
  calls,
  summary,
}: {
  scope: Scope;
  calls: readonly ToolUseBlock[];
  summary: string;
}) {
  return (
    <details className="quiet-fold" data-calls={calls.length}>
      <summary>
        <span className="tool-state" aria-hidden="true">
          ✓
        </span>
        {summary}
      </summary>
      <div className="quiet-fold-body">
        {calls.map((block) => (
          <ToolCard key={block.id} {...scope} block={block} running={false} />
        ))}
      </div>
    </details>
  );
}

const AssistantMessage = memo(function AssistantMessage({
  sessionId,
  agentId,
  item,
  working,
  results,
}: Scope & {
  item: MessageItem;
  working: boolean;
  results: Results;
}) {
  const modelLabel = useStore((s) =>
    s.models.find((m) => m.id === item.model)?.label.replace(/ \(.*\)$/, ''),
  );
  const scope = { sessionId, agentId };
  return (
    <article
      className={`message assistant status-${item.status}`}
      data-status={item.status}
      aria-label="Assistant"
    >
      <div className="message-role">{modelLabel ?? item.model ?? 'Assistant'}</div>
      <div className="message-body">
        {foldBlocks(item.content, results).map((unit) => {
          if (unit.kind === 'fold')
            return <QuietFold key={unit.id} scope={scope} calls={unit.calls} summary={unit.summary} />;
          const { block, index: i } = unit;
          if (block.type === 'text') return <Markdown key={i} text={block.text} />;
          if (block.type === 'tool_use')
            // An Agent call is a whole sub-agent: one card with its live progress and its own
            // transcript (drawn by this same component, passed in so the files import one way).
            return block.name === 'Agent' ? (
              <AgentCard key={block.id} {...scope} block={block} running={working} Items={TranscriptItems} />
            ) : (
              <ToolCard key={block.id} {...scope} block={block} running={working} />
            );
          if (block.type === 'thinking')
            return (
              <details key={i} className="thinking">
                <summary>Thinking</summary>
                <p className="plain">{block.thinking}</p>
              </details>
            );
          return null;
        })}
        {item.status === 'streaming' ? <span className="cursor" aria-hidden="true" /> : null}
        {item.status === 'interrupted' ? <p className="muted">(stopped)</p> : null}
      </div>
    </article>
  );
});

const UserMessage = memo(function UserMessage({ item, label }: { item: MessageItem; label: string }) {
  return (
    <article className="message user" data-status={item.status} aria-label={label}>
      <div className="message-role">{label}</div>
      <div className="message-body">
        <p className="plain">{messageText(item.content)}</p>
      </div>
    </article>
  );
});

/** What the harness said to the model (a resume nudge, a compaction summary): a quiet, expandable note. */
const HarnessNote = memo(function HarnessNote({ item }: { item: MessageItem }) {
  return (
    <details className="note" data-origin={item.origin}>
      <summary>
        {item.origin === 'summary'
          ? 'Earlier conversation summarized to fit the context window'
          : 'The harness asked the model to continue'}
      </summary>
      <p className="plain">{messageText(item.content)}</p>
    </details>
  );
});

const NoticeView = memo(function NoticeView({ item }: { item: NoticeItem }) {
  return (
    <div
      className={`notice notice-${item.level}`}
      data-code={item.code}
      role={item.level === 'error' ? 'alert' : undefined}
    >
      {item.text}
    </div>
  );
});

function ItemView({
  scope,
  item,
  working,
  results,
}: {
  scope: Scope;
  item: TranscriptItem;
  working: boolean;
  results: Results;
}) {
  if (item.kind === 'notice') return <NoticeView item={item} />;
  if (item.role === 'assistant')
    return <AssistantMessage {...scope} item={item} working={working} results={results} />;
  // Tool results show on their cards; a closing "interrupted" message likewise.
  if (item.origin === 'tool_results' || item.origin === 'interrupt') return null;
  if (item.origin === 'nudge' || item.origin === 'summary') return <HarnessNote item={item} />;
  // A sub-agent's "user" message is its parent's prompt (or a person's message to a worker).
  return <UserMessage item={item} label={scope.agentId === scope.sessionId ? 'You' : 'Prompt'} />;
}

/**
 * The items of one agent's transcript, folded for reading. `working` says whether calls without a
 * result are running (rather than left unanswered by a stopped turn).
 */
export function TranscriptItems({
  sessionId,
  agentId,
  working,
  empty,
}: Scope & { working: boolean; empty?: ReactNode }) {
  const items = useTranscriptItems(sessionId, agentId);
  const results = useToolResults(sessionId, agentId);
  const units = useMemo(() => foldTranscript(items, results), [items, results]);
  const scope = useMemo(() => ({ sessionId, agentId }), [sessionId, agentId]);
  if (items.length === 0) return empty ?? null;
  return (
    <>
      {units.map((unit) =>
        unit.kind === 'fold' ? (
          <QuietFold key={unit.id} scope={scope} calls={foldedCalls(unit.messages)} summary={unit.summary} />
        ) : (
          <ItemView key={unit.item.id} scope={scope} item={unit.item} working={working} results={results} />
        ),
      )}
    </>
  );
}

/**
 * A scrolling transcript that follows new output while the reader is at the bottom and stays put
 * otherwise: the session's (its main agent's), or one sub-agent's or worker's in the team view.
 */
export function Transcript({
  sessionId,
  agentId = sessionId,
  working: agentWorking,
  label = 'Transcript',
}: {
  sessionId: string;
  agentId?: string;
  /** For a sub-agent: whether it is still running. The session's own comes from its summary. */
  working?: boolean | undefined;
  label?: string;
}) {
  const sessionWorking = useStore((s) => isWorking(s.sessions[sessionId]?.activity));
  const working = agentWorking ?? sessionWorking;
  const items = useTranscriptItems(sessionId, agentId);
  const ref = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [items]);

  return (
    <div
      ref={ref}
      role="log"
      aria-label={label}
      aria-live="polite"
      className="transcript"
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      <TranscriptItems
        sessionId={sessionId}
        agentId={agentId}
        working={working}
        empty={
          agentId === sessionId ? (
            <p className="muted empty-transcript">Say what you want done. Replies stream in here.</p>
          ) : (
            <p className="muted empty-transcript">Nothing yet.</p>
          )
        }
      />
    </div>
  );
}
