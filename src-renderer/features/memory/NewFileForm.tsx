import { useState } from 'react';
import type { MemoryScopeView } from '@shared/domain/memory';
import { MEMORY_TYPES, type MemoryType } from './frontmatter';

/** A file name from what the person typed: lower-case words joined by dashes, ending in `.md`. */
export function fileNameFor(title: string): string {
  const trimmed = title.trim();
  if (trimmed.endsWith('.md') && !/\s/.test(trimmed)) return trimmed;
  const slug = trimmed
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9/]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? '' : `${slug}.md`;
}

/** New file in a scope: a memory from its type's template, or an instruction file by name. */
export function NewFileForm({
  scope,
  onCreate,
  onCancel,
}: {
  scope: MemoryScopeView;
  onCreate: (name: string, root: number, type: MemoryType | undefined) => Promise<string | null>;
  onCancel: () => void;
}) {
  const memory = scope.scope === 'auto-memory' || scope.scope === 'team-memory';
  const roots = scope.roots.filter((r) => r.writable);
  const [title, setTitle] = useState('');
  const [type, setType] = useState<MemoryType>('feedback');
  const [root, setRoot] = useState(roots[0]?.index ?? 0);
  const [error, setError] = useState<string | null>(null);
  const name = fileNameFor(title);
  return (
    <form
      className="memory-new"
      aria-label={`New file in ${scope.label}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (name === '') {
          setError('Give the file a name.');
          return;
        }
        void onCreate(name, root, memory ? type : undefined).then(setError);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <h3>New file in {scope.label}</h3>
      {memory ? (
        <div className="memory-field">
          <label htmlFor="memory-new-type">Type</label>
          <select id="memory-new-type" value={type} onChange={(e) => setType(e.target.value as MemoryType)}>
            {MEMORY_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {roots.length > 1 ? (
        <div className="memory-field">
          <label htmlFor="memory-new-root">Folder</label>
          <select id="memory-new-root" value={root} onChange={(e) => setRoot(Number(e.target.value))}>
            {roots.map((r) => (
              <option key={r.index} value={r.index}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="memory-field">
        <label htmlFor="memory-new-name">File name</label>
        <input
          id="memory-new-name"
          autoFocus
          value={title}
          placeholder={memory ? 'e.g. tabs in go files' : 'e.g. CLAUDE.md'}
          aria-describedby="memory-new-hint"
          onChange={(e) => (setTitle(e.target.value), setError(null))}
        />
        <span id="memory-new-hint" className="muted">
          {name === '' ? ' ' : `Saved as ${name}`}
        </span>
      </div>
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
      <div className="memory-actions">
        <button type="submit" className="primary">
          Create
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
