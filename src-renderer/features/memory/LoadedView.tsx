import { useEffect, useState } from 'react';
import type { LoadedMemory, MemoryScopeView } from '@shared/domain/memory';
import { memoryApi, problem, type FileRef } from './memory-api';

const baseName = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/**
 * What went into the active session's context: every instruction file and memory, in precedence
 * order, each with the file whose `@import` pulled it in.
 */
export function LoadedView({
  sessionId,
  scopes,
  onOpen,
}: {
  sessionId: string | null;
  scopes: MemoryScopeView[];
  onOpen: (ref: FileRef) => void;
}) {
  const [loaded, setLoaded] = useState<LoadedMemory | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    memoryApi.loaded(sessionId).then(
      (l) => live && (setLoaded(l), setError(null)),
      (e: unknown) => live && setError(problem(e)),
    );
    return () => {
      live = false;
    };
  }, [sessionId]);
  const labelOf = (scope: string) => scopes.find((s) => s.scope === scope)?.label ?? scope;

  return (
    <section className="memory-side-view" aria-label="Loaded in this session">
      <h3>Loaded in this session</h3>
      {!sessionId ? (
        <p className="muted">No session is open: start one to see what it loads.</p>
      ) : error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : loaded === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          {loaded.files.length === 0 ? (
            <p className="muted">This session has not loaded any instruction file or memory yet.</p>
          ) : (
            <ol className="memory-list memory-loaded">
              {loaded.files.map((f, i) => (
                <li key={`${i}:${f.path}`}>
                  <span className="memory-badge">{labelOf(f.scope)}</span>
                  {f.ref ? (
                    <button
                      type="button"
                      className="link"
                      title={f.path}
                      onClick={() => f.ref && onOpen(f.ref)}
                    >
                      {f.path}
                    </button>
                  ) : (
                    <span title={f.path}>{f.path}</span>
                  )}
                  {f.importedBy ? (
                    <span className="muted memory-imported">imported by {baseName(f.importedBy)}</span>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
          {loaded.notices.length > 0 ? (
            <ul className="memory-notices" aria-label="Notices">
              {loaded.notices.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}
