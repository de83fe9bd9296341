import { memo, useLayoutEffect, useRef } from 'react';
import type { MessageItem, NoticeItem, TranscriptItem } from '@shared/domain/messages';
import { useTranscripts } from '../../stores/transcripts-store';
import { useWorkspace } from '../../stores/workspace-store';
import { Markdown } from './Markdown';

const EMPTY: TranscriptItem[] = [];

const MessageView = memo(function MessageView({ item }: { item: MessageItem }) {
  const modelLabel = useWorkspace((s) =>
    s.models.find((m) => m.id === item.model)?.label.replace(/ \(.*\)$/, ''),
  );
  return (
    <article
      className={`message ${item.role} status-${item.status}`}
      data-status={item.status}
      aria-label={item.role === 'user' ? 'You' : 'Assistant'}
    >
      <div className="message-role">
        {item.role === 'user' ? 'You' : (modelLabel ?? item.model ?? 'Assistant')}
      </div>
      <div className="message-body">
        {item.content.map((block, i) => {
          if (block.type === 'text')
            return item.role === 'user' ? (
              <p key={i} className="plain">
                {block.text}
              </p>
            ) : (
              <Markdown key={i} text={block.text} />
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

/** The session's transcript; follows new output while the reader is at the bottom, stays put otherwise. */
export function Transcript({ sessionId }: { sessionId: string }) {
  const items = useTranscripts((s) => s.bySession[sessionId] ?? EMPTY);
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
      {items.map((item) =>
        item.kind === 'message' ? (
          <MessageView key={item.id} item={item} />
        ) : (
          <NoticeView key={item.id} item={item} />
        ),
      )}
    </div>
  );
}
