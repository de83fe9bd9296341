import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { useScrollToTarget } from './scroll-target';
import {
  messageText,
  type MessageItem,
  type NoticeItem,
  type ToolResultBlock,
  type ToolUseBlock,
  type TranscriptItem,
} from '@shared/domain/messages';
import { isWorking } from '@shared/domain/session';
import { useToolResults, useTranscriptItems, useTranscriptLoaded } from '../../stores/selectors';
import { useStore } from '../../stores/store';
import { AgentCard } from './AgentCard';
import { CompactionNote } from './CompactionNote';
import { HookNote } from './HookNote';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';
import { MessageActions } from '../rewind/MessageActions';
import { RewindDialog } from '../rewind/RewindDialog';
import { TurnFailure } from './TurnFailure';
import { foldBlocks, foldedCalls, foldTranscript, type Unit } from './fold';
import { useTranscriptFetch } from './transcript-fetch';
import './transcript.css';

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
          if (block.type === 'text')
            return <Markdown key={i} text={block.text} streaming={item.status === 'streaming'} />;
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

const UserMessage = memo(function UserMessage({
  item,
  label,
  sessionId,
}: {
  item: MessageItem;
  label: string;
  /** For the person's own messages in a session's main transcript: rewind and fork from here. */
  sessionId?: string | undefined;
}) {
  return (
    <article className="message user" data-status={item.status} aria-label={label}>
      <div className="message-role">{label}</div>
      {sessionId !== undefined && <MessageActions sessionId={sessionId} messageId={item.id} />}
      <div className="message-body">
        <p className="plain">{messageText(item.content)}</p>
      </div>
    </article>
  );
});

/** What the harness said to the model (a resume nudge, a compaction summary, recalled memories): a quiet, expandable note. */
const HarnessNote = memo(function HarnessNote({ item }: { item: MessageItem }) {
  return (
    <details className="note" data-origin={item.origin}>
      <summary>
        {item.origin === 'summary'
          ? 'Earlier conversation summarized to fit the context window'
          : item.origin === 'memory'
            ? 'Memories recalled for this message'
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
  if (item.kind === 'notice')
    return item.compaction ? (
      <CompactionNote item={item} compaction={item.compaction} />
    ) : item.hook ? (
      <HookNote item={item} hook={item.hook} />
    ) : (
      <NoticeView item={item} />
    );
  if (item.role === 'assistant')
    return <AssistantMessage {...scope} item={item} working={working} results={results} />;
  // Tool results show on their cards; a closing "interrupted" message likewise.
  if (item.origin === 'tool_results' || item.origin === 'interrupt') return null;
  if (item.origin === 'nudge' || item.origin === 'summary' || item.origin === 'memory')
    return <HarnessNote item={item} />;
  // A sub-agent's "user" message is its parent's prompt (or a person's message to a worker).
  const own = scope.agentId === scope.sessionId;
  return (
    <UserMessage
      item={item}
      label={own ? 'You' : 'Prompt'}
      sessionId={own && item.origin === 'user' ? scope.sessionId : undefined}
    />
  );
}

/** One row of a transcript: a message, a notice or a fold of quiet calls. */
export const TranscriptRow = memo(function TranscriptRow({
  scope,
  unit,
  working,
  results,
}: {
  scope: Scope;
  unit: Unit;
  working: boolean;
  results: Results;
}) {
  return unit.kind === 'fold' ? (
    <QuietFold scope={scope} calls={foldedCalls(unit.messages)} summary={unit.summary} />
  ) : (
    <ItemView scope={scope} item={unit.item} working={working} results={results} />
  );
});

const unitKey = (unit: Unit): string => (unit.kind === 'fold' ? unit.id : unit.item.id);

/** The folded rows of one agent's transcript, kept together with what drawing them needs. */
function useUnits(sessionId: string, agentId: string) {
  const items = useTranscriptItems(sessionId, agentId);
  const results = useToolResults(sessionId, agentId);
  const units = useMemo(() => foldTranscript(items, results), [items, results]);
  const scope = useMemo(() => ({ sessionId, agentId }), [sessionId, agentId]);
  return { items, results, units, scope };
}

/**
 * The items of one agent's transcript, folded for reading, all in the page: a sub-agent's transcript
 * inside its card (short, and inside a transcript that is itself virtualised). `working` says
 * whether calls without a result are running (rather than left unanswered by a stopped turn).
 */
export function TranscriptItems({
  sessionId,
  agentId,
  working,
  empty,
}: Scope & { working: boolean; empty?: ReactNode }) {
  const { items, results, units, scope } = useUnits(sessionId, agentId);
  if (items.length === 0) return empty ?? null;
  return (
    <>
      {units.map((unit) => (
        <TranscriptRow key={unitKey(unit)} scope={scope} unit={unit} working={working} results={results} />
      ))}
    </>
  );
}

/** A first guess at a row's height before it is measured: close to a short reply's. */
const ESTIMATED_ROW = 120;
/** Rows drawn beyond each edge of the viewport, so fast scrolling rarely shows a gap. */
const OVERSCAN = 4;
/** How near the bottom (px) still counts as "at the bottom" (following new output). */
const PINNED_SLACK = 40;
/** A layout with no size yet (a test's DOM, a hidden tile) is treated as this big. */
const FALLBACK_RECT = { width: 800, height: 600 };

/** The element's size as the virtualiser sees it; a 0×0 one (not laid out) counts as a default. */
const observeRect: typeof observeElementRect = (instance, cb) =>
  observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : FALLBACK_RECT));

/**
 * A scrolling transcript that follows new output while the reader is at the bottom and stays put
 * otherwise: the session's (its main agent's), or one sub-agent's or worker's in the team view.
 *
 * Only the rows in and near the viewport are in the page (@tanstack/react-virtual, rows measured as
 * they draw), so a session of thousands of messages scrolls as fast as a short one. The price: the
 * browser's find-in-page only finds text in the rows drawn.
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
  const { items, results, units, scope } = useUnits(sessionId, agentId);
  const loaded = useTranscriptLoaded(sessionId, agentId);
  // The window lets go of transcripts out of view (transcripts-slice.ts); shown again, it is fetched.
  // A sub-agent's is fetched by the card or team view that shows it.
  const fetched = useTranscriptFetch(sessionId, !loaded && agentId === sessionId);
  const ref = useRef<HTMLDivElement>(null);
  // Following the bottom: true until the person scrolls up, and again once they reach the bottom.
  const pinned = useRef(true);
  const [showJump, setShowJump] = useState(false);
  // Set while a person is scrolling (wheel, keys, touch, scrollbar): only their scrolling unpins.
  // The virtualiser also moves the scroll position as rows are measured; that must not.
  const userScroll = useRef({ pointer: false, until: 0 });

  // The app is not built with the React Compiler; the virtualiser re-renders this component itself.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: units.length,
    getScrollElement: () => ref.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (i) => {
      const unit = units[i];
      return unit ? unitKey(unit) : i;
    },
    overscan: OVERSCAN,
    observeElementRect: observeRect,
    initialRect: FALLBACK_RECT,
    // Opens at the bottom: the latest messages are what a person comes back for.
    initialOffset: () => units.length * ESTIMATED_ROW,
  });
  const total = virtualizer.getTotalSize();

  // New output or rows measured taller than guessed: stay at the bottom while following.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [items, total]);

  const jumpToLatest = useCallback(() => {
    const el = ref.current;
    pinned.current = true;
    setShowJump(false);
    if (units.length > 0) virtualizer.scrollToIndex(units.length - 1, { align: 'end' });
    if (el) el.scrollTop = el.scrollHeight;
  }, [units.length, virtualizer]);

  // Search's "show me that message": scrolled to once the rows hold it, and marked for a moment.
  const jumpTo = useCallback(
    (index: number) => {
      pinned.current = false;
      setShowJump(true);
      virtualizer.scrollToIndex(index, { align: 'center' });
    },
    [virtualizer],
  );
  const marked = useScrollToTarget(sessionId, agentId === sessionId, units, unitKey, jumpTo);

  const userActs = () => {
    userScroll.current.until = performance.now() + 800;
  };

  const rows = virtualizer.getVirtualItems();
  return (
    <div className="transcript-frame">
      {agentId === sessionId && <RewindDialog sessionId={sessionId} />}
      <div
        ref={ref}
        role="log"
        aria-label={label}
        aria-live="polite"
        className="transcript"
        tabIndex={0}
        onWheel={userActs}
        onKeyDown={(e) => {
          userActs();
          if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.target !== e.currentTarget) return;
          // The browser's own Home/End scroll smoothly, and rows measured on the way stop them
          // halfway; the virtualiser knows where the first and last rows are.
          if (e.key === 'Home') {
            e.preventDefault();
            pinned.current = false;
            setShowJump(units.length > 0);
            virtualizer.scrollToIndex(0, { align: 'start' });
          } else if (e.key === 'End') {
            e.preventDefault();
            jumpToLatest();
          }
        }}
        onTouchMove={userActs}
        onPointerDown={() => {
          userScroll.current.pointer = true;
        }}
        onPointerUp={() => {
          userScroll.current.pointer = false;
          userActs();
        }}
        onScroll={(e) => {
          const el = e.currentTarget;
          const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_SLACK;
          const byPerson = userScroll.current.pointer || performance.now() < userScroll.current.until;
          if (atBottom) pinned.current = true;
          else if (byPerson) pinned.current = false;
          setShowJump(!pinned.current);
        }}
      >
        {items.length === 0 ? (
          fetched.error !== null ? (
            <div className="empty-transcript load-failed" role="alert">
              <p>Could not load the transcript: {fetched.error}</p>
              <button type="button" onClick={fetched.retry}>
                Retry
              </button>
            </div>
          ) : !loaded && agentId === sessionId ? (
            <p className="muted empty-transcript">Loading…</p>
          ) : agentId === sessionId ? (
            <p className="muted empty-transcript">Say what you want done. Replies stream in here.</p>
          ) : (
            <p className="muted empty-transcript">Nothing yet.</p>
          )
        ) : (
          <div className="transcript-rows" style={{ height: total }}>
            {rows.map((row) => {
              const unit = units[row.index];
              if (!unit) return null;
              return (
                <div
                  key={row.key}
                  ref={virtualizer.measureElement}
                  data-index={row.index}
                  className={row.key === marked ? 'transcript-row search-hit' : 'transcript-row'}
                  style={{ transform: `translateY(${row.start}px)` }}
                >
                  <TranscriptRow scope={scope} unit={unit} working={working} results={results} />
                </div>
              );
            })}
          </div>
        )}
        {agentId === sessionId ? <TurnFailure sessionId={sessionId} /> : null}
      </div>
      {showJump ? (
        <button type="button" className="jump-to-latest" onClick={jumpToLatest}>
          Jump to latest ↓
        </button>
      ) : null}
    </div>
  );
}
