/** Both versions of a file changed on disk during an unsaved edit, and the two ways out. */
export function ConflictView({
  mine,
  theirs,
  busy,
  onKeepMine,
  onTakeTheirs,
}: {
  mine: string;
  theirs: string | null;
  busy: boolean;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  return (
    <section className="memory-conflict" aria-label="Changed on disk">
      <p role="alert">
        {theirs === null
          ? 'This file was deleted on disk while you had unsaved edits.'
          : 'This file changed on disk while you had unsaved edits. Nothing is overwritten until you choose.'}
      </p>
      <div className="memory-conflict-sides">
        <figure aria-label="Your version">
          <figcaption>Your version (unsaved)</figcaption>
          <pre tabIndex={0}>{mine}</pre>
        </figure>
        <figure aria-label="Version on disk">
          <figcaption>On disk</figcaption>
          <pre tabIndex={0}>{theirs ?? '(deleted)'}</pre>
        </figure>
      </div>
      <div className="memory-actions">
        <button type="button" className="primary" disabled={busy} onClick={onKeepMine}>
          Keep mine
        </button>
        <button type="button" disabled={busy} onClick={onTakeTheirs}>
          {theirs === null ? 'Discard mine' : 'Take theirs'}
        </button>
      </div>
    </section>
  );
}
