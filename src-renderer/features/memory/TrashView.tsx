import { useCallback, useEffect, useState } from 'react';
import type { MemoryScopeView, MemoryTrashEntry } from '@shared/domain/memory';
import { memoryApi, problem } from './memory-api';

/** Deleted files of every writable scope, newest first, each restorable under its old name. */
export function TrashView({
  projectId,
  scopes,
  onRestored,
}: {
  projectId: string;
  scopes: MemoryScopeView[];
  onRestored: (entry: MemoryTrashEntry) => void;
}) {
  const [entries, setEntries] = useState<MemoryTrashEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const labelOf = (scope: string) => scopes.find((s) => s.scope === scope)?.label ?? scope;

  const load = useCallback(() => {
    const roots = scopes.flatMap((s) =>
      s.roots.filter((r) => r.writable && r.exists).map((r) => ({ scope: s.scope, root: r.index })),
    );
    return Promise.all(roots.map((r) => memoryApi.trash(projectId, r.scope, r.root))).then(
      (lists) => {
        setEntries(lists.flat().sort((a, b) => b.deletedAtMs - a.deletedAtMs));
        setError(null);
      },
      (e: unknown) => setError(problem(e)),
    );
  }, [projectId, scopes]);

  useEffect(() => {
    void load();
  }, [load]);

  const restore = async (entry: MemoryTrashEntry) => {
    try {
      await memoryApi.restore(projectId, entry.scope, entry.root, entry.id);
      await load();
      onRestored(entry);
    } catch (e) {
      setError(`Not restored: ${problem(e)}`);
    }
  };

  return (
    <section className="memory-side-view" aria-label="Trash">
      <h3>Trash</h3>
      <p className="muted">Deleted files wait in each folder’s .trash/ until you restore them.</p>
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
      {entries === null ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="muted">The trash is empty.</p>
      ) : (
        <ul className="memory-list">
          {entries.map((e) => (
            <li key={`${e.scope}:${e.root}:${e.id}`}>
              <span className="memory-file-name">{e.name}</span>
              <span className="memory-badge">{labelOf(e.scope)}</span>
              <span className="muted">deleted {new Date(e.deletedAtMs).toLocaleString()}</span>
              <button type="button" aria-label={`Restore ${e.name}`} onClick={() => void restore(e)}>
                Restore
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
