import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useMemo, useRef, useState } from 'react';
import type { DiffLine, FileDiff } from '@shared/ipc/contract/changes';
import type { Token } from '../transcript/code-highlight';
import { buildRows, highlightDiff, refOf, type LineRef, type Row } from './diff-rows';
import { useReview, useSessionComments } from './review-store';

/**
 * One file's diff, unified or side by side, drawn through a virtualiser so a 10,000-line diff keeps
 * only the rows on screen in the page. A line's number is a button that opens a comment editor under
 * it; saved comments show under their line until they are sent.
 */

function Tokens({ tokens }: { tokens: readonly Token[] }) {
  return (
    <>
      {tokens.map((t, i) =>
        t.className ? (
          <span key={i} className={t.className}>
            {t.text}
          </span>
        ) : (
          <Fragment key={i}>{t.text}</Fragment>
        ),
      )}
    </>
  );
}

const OP = { context: ' ', add: '+', del: '-' } as const;

interface PaneProps {
  sessionId: string;
  diff: FileDiff;
  onStageHunk: (index: number, header: string) => void;
  onDiscardHunk: (index: number, header: string) => void;
}

export function DiffPane({ sessionId, diff, onStageHunk, onDiscardHunk }: PaneProps) {
  const layout = useReview((s) => s.layout);
  const comments = useSessionComments(sessionId);
  const [editing, setEditing] = useState<LineRef | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const tokens = useMemo(() => highlightDiff(diff), [diff]);
  const rows = useMemo(() => buildRows(diff, layout, comments, editing), [diff, layout, comments, editing]);
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualiser's own API (as the transcript uses it)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i]?.type === 'comment' || rows[i]?.type === 'editor' ? 72 : 20),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 30,
  });

  // `commentable` false: the left copy of a context line side by side (its comment goes on the right one).
  const lineCell = (l: DiffLine | null, side: 'old' | 'new' | 'both', commentable = true) => {
    if (!l) return <div className="cv-cell cv-empty" />;
    const ref = refOf(l);
    const numbers =
      side === 'both' ? (
        <>
          <span className="cv-ln">{l.oldLine ?? ''}</span>
          <span className="cv-ln">{l.newLine ?? ''}</span>
        </>
      ) : (
        <span className="cv-ln">{side === 'old' ? l.oldLine : l.newLine}</span>
      );
    return (
      <div className={`cv-cell cv-${l.kind}`}>
        {commentable ? (
          <button
            type="button"
            className="cv-gutter"
            aria-label={`Comment on ${ref.side === 'old' ? 'removed ' : ''}line ${ref.line}`}
            title="Comment on this line"
            onClick={() => setEditing(ref)}
          >
            {numbers}
          </button>
        ) : (
          <span className="cv-gutter">{numbers}</span>
        )}
        <span className="cv-op" aria-hidden="true">
          {OP[l.kind]}
        </span>
        <span className="cv-code">
          <Tokens tokens={tokens.get(l) ?? [{ text: l.text }]} />
        </span>
      </div>
    );
  };

  const renderRow = (r: Row) => {
    switch (r.type) {
      case 'hunk':
        return (
          <div className="cv-hunk">
            <span className="cv-hunk-header">{r.header}</span>
            {confirming === r.hunk ? (
              <span className="cv-confirm" role="group" aria-label="Confirm discarding the hunk">
                Discard this hunk from the file?
                <button
                  type="button"
                  className="small danger"
                  onClick={() => {
                    setConfirming(null);
                    onDiscardHunk(r.hunk, r.header);
                  }}
                >
                  Discard
                </button>
                <button type="button" className="small" onClick={() => setConfirming(null)}>
                  Keep
                </button>
              </span>
            ) : (
              <>
                <button type="button" className="small" onClick={() => onStageHunk(r.hunk, r.header)}>
                  Stage hunk
                </button>
                {diff.status === 'untracked' ? null : (
                  <button type="button" className="small" onClick={() => setConfirming(r.hunk)}>
                    Discard hunk…
                  </button>
                )}
              </>
            )}
          </div>
        );
      case 'line':
        return lineCell(r.line, 'both');
      case 'pair':
        return (
          <div className="cv-pair">
            {lineCell(r.left, 'old', r.left?.kind === 'del')}
            {lineCell(r.right, 'new')}
          </div>
        );
      case 'comment':
        return (
          <div
            className="cv-comment"
            role="note"
            aria-label={`Comment on ${r.comment.file}:${r.comment.line}`}
          >
            <p>{r.comment.text}</p>
            <button
              type="button"
              className="link"
              onClick={() => useReview.getState().removeComment(sessionId, r.comment.id)}
            >
              Delete
            </button>
          </div>
        );
      case 'editor':
        return (
          <CommentEditor
            label={`Comment on ${diff.path} ${r.target.side === 'old' ? 'removed ' : ''}line ${r.target.line}`}
            onCancel={() => setEditing(null)}
            onSave={(text) => {
              useReview.getState().addComment(sessionId, {
                file: diff.path,
                side: r.target.side,
                line: r.target.line,
                quote: r.target.text,
                text,
              });
              setEditing(null);
            }}
          />
        );
    }
  };

  return (
    <div ref={scroller} className={`cv-diff cv-${layout}`} aria-label={`Diff of ${diff.path}`} role="region">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index];
          if (!row) return null;
          return (
            <div
              key={v.key}
              data-index={v.index}
              ref={virtualizer.measureElement}
              className="cv-row"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                transform: `translateY(${v.start}px)`,
              }}
            >
              {renderRow(row)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function CommentEditor({
  label,
  onSave,
  onCancel,
}: {
  label: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState('');
  const save = () => {
    if (text.trim() !== '') onSave(text.trim());
  };
  return (
    <div className="cv-editor">
      <textarea
        aria-label={label}
        placeholder="Comment for the agent (Ctrl+Enter to add, Esc to cancel)"
        value={text}
        rows={2}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            save();
          } else if (e.key === 'Escape') {
            // Handled here: the window's Esc would otherwise stop the session's reply.
            e.preventDefault();
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <div className="cv-editor-buttons">
        <button type="button" className="small primary" disabled={text.trim() === ''} onClick={save}>
          Add comment
        </button>
        <button type="button" className="small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
