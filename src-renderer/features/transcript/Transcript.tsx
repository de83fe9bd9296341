import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import {
  messageText,
  type MessageItem,
  type NoticeItem,
  type ToolResultBlock,
  type ToolUseBlock,
  type TranscriptItem,
} from '@shared/domain/messages';
import { isWorking } from '@shared/domain/session';
import { useTranscripts } from '../../stores/transcripts-store';
import { useWorkspace } from '../../stores/workspace-store';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';
import { foldBlocks, foldedCalls, foldTranscript } from './fold';

const EMPTY: TranscriptItem[] = [];
type Results = Record<string, ToolResultBlock> | undefined;

/** A run of calls that only read, searched or listed: one line ("Read 4 files, searched 2 patterns") that expands. */
function QuietFold({
  sessionId,
  calls,
  summary,
}: {
  sessionId: string;
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
          <ToolCard key={block.id} sessionId={sessionId} block={block} running={false} />
        ))}
      </div>
    </details>
  );
}

const AssistantMessage = memo(function AssistantMessage({
  sessionId,
  item,
  working,
  results,
}: {
  sessionId: string;
  item: MessageItem;
  working: boolean;
  results: Results;
}) {
  const modelLabel = useWorkspace((s) =>
    s.models.find((m) => m.id === item.model)?.label.replace(/ \(.*\)$/, ''),
  );
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
            return (
              <QuietFold key={unit.id} sessionId={sessionId} calls={unit.calls} summary={unit.summary} />
            );
          const { block, index: i } = unit;
          if (block.type === 'text') return <Markdown key={i} text={block.text} />;
          if (block.type === 'tool_use')
            return <ToolCard key={block.id} sessionId={sessionId} block={block} running={working} />;
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

const UserMessage = memo(function UserMessage({ item }: { item: MessageItem }) {
  return (
    <article className="message user" data-status={item.status} aria-label="You">
      <div className="message-role">You</div>
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
  sessionId,
  item,
  working,
  results,
}: {
  sessionId: string;
  item: TranscriptItem;
  working: boolean;
  results: Results;
}) {
  if (item.kind === 'notice') return <NoticeView item={item} />;
  if (item.role === 'assistant')
    return <AssistantMessage sessionId={sessionId} item={item} working={working} results={results} />;
  // Tool results show on their cards; a closing "interrupted" message likewise.
  if (item.origin === 'tool_results' || item.origin === 'interrupt') return null;
  if (item.origin === 'nudge' || item.origin === 'summary') return <HarnessNote item={item} />;
  return <UserMessage item={item} />;
}

/** The session's transcript; follows new output while the reader is at the bottom, stays put otherwise. */
export function Transcript({ sessionId }: { sessionId: string }) {
  const items = useTranscripts((s) => s.bySession[sessionId] ?? EMPTY);
  const working = useWorkspace((s) => isWorking(s.sessions[sessionId]?.activity));
  const results = useTranscripts((s) => s.results[sessionId]);
  const units = useMemo(() => foldTranscript(items, results), [items, results]);
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
      aria-label="Transcript"
      aria-live="polite"
      className="transcript"
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {items.length === 0 ? (
        <p className="muted empty-transcript">Say what you want done. Replies stream in here.</p>
      ) : null}
      {units.map((unit) =>
        unit.kind === 'fold' ? (
          <QuietFold
            key={unit.id}
            sessionId={sessionId}
            calls={foldedCalls(unit.messages)}
            summary={unit.summary}
          />
        ) : (
          <ItemView
            key={unit.item.id}
            sessionId={sessionId}
            item={unit.item}
            working={working}
            results={results}
          />
        ),
      )}
    </div>
  );
}
