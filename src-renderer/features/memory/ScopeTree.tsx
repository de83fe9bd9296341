import type { MemoryScopeView } from '@shared/domain/memory';
import { ageLabel, isStale } from './age';
import { refKey, type FileRef } from './memory-api';
import { isIndex } from './tree';

/** The scopes and their files; the open file is marked, MEMORY.md first in its scope. */
export function ScopeTree({
  scopes,
  selected,
  filtering,
  onOpen,
  onNew,
}: {
  scopes: MemoryScopeView[];
  selected: FileRef | null;
  filtering: boolean;
  onOpen: (ref: FileRef) => void;
  onNew: (scope: MemoryScopeView) => void;
}) {
  const selectedKey = selected ? refKey(selected) : null;
  if (filtering && scopes.length === 0) return <p className="muted memory-empty">No file matches.</p>;
  return (
    <nav className="memory-tree" aria-label="Memory files">
      {scopes.map((scope) => {
        const writable = scope.roots.some((r) => r.writable);
        return (
          <section key={scope.scope} aria-label={scope.label} className="memory-scope">
            <div className="memory-scope-head">
              <h3 title={scope.roots.map((r) => r.path).join('\n')}>{scope.label}</h3>
              {writable && scope.disabled !== true ? (
                <button
                  type="button"
                  className="memory-small"
                  aria-label={`New file in ${scope.label}`}
                  title={`New file in ${scope.label}`}
                  onClick={() => onNew(scope)}
                >
                  + New
                </button>
              ) : null}
            </div>
            {scope.disabled ? <p className="muted memory-note">Auto memory is off.</p> : null}
            {scope.files.length === 0 ? (
              <p className="muted memory-note">No files</p>
            ) : (
              <ul>
                {scope.files.map((f) => {
                  const ref = { scope: f.scope, root: f.root, name: f.name };
                  const current = refKey(ref) === selectedKey;
                  return (
                    <li key={refKey(ref)}>
                      <button
                        type="button"
                        className="memory-file"
                        aria-current={current ? 'true' : undefined}
                        title={f.description ?? f.name}
                        onClick={() => onOpen(ref)}
                      >
                        <span className="memory-file-name">{f.name}</span>
                        {isIndex(f) ? <span className="memory-badge">index</span> : null}
                        {f.type ? <span className="memory-badge">{f.type}</span> : null}
                        {f.invalid ? (
                          <span className="memory-badge memory-badge-bad" title="Frontmatter has problems">
                            !
                          </span>
                        ) : null}
                        <span
                          className={`memory-age${isStale(f.ageDays) ? ' memory-age-stale' : ''}`}
                          title={`Changed ${ageLabel(f.ageDays)}`}
                        >
                          {ageLabel(f.ageDays)}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        );
      })}
    </nav>
  );
}
