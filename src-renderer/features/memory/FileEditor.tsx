import { useMemo, useState } from 'react';
import { Markdown } from '../transcript/Markdown';
import { CodeEditor } from './CodeEditor';
import { ConflictView } from './ConflictView';
import { FrontmatterForm } from './FrontmatterForm';
import { readMemory, splitFrontmatter, withField, withSection } from './frontmatter';
import { IndexGaugeView } from './IndexGaugeView';
import type { FileRef } from './memory-api';
import { isIndex, isMemoryFile } from './tree';
import { isDirty, type OpenFile } from './use-open-file';

/**
 * One open file: its name and actions, the MEMORY.md gauge, the frontmatter form (memory files),
 * the editor beside a rendered preview, and both versions when disk and draft disagree.
 */
export function FileEditor({
  file,
  setDraft,
  onSave,
  onKeepMine,
  onTakeTheirs,
  onRename,
  onDelete,
}: {
  file: OpenFile;
  setDraft: (text: string) => void;
  onSave: () => void;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
  onRename: (newName: string) => Promise<string | null>;
  onDelete: () => Promise<string | null>;
}) {
  const [mode, setMode] = useState<'idle' | 'rename' | 'delete'>('idle');
  const [newName, setNewName] = useState(file.ref.name);
  const [actionError, setActionError] = useState<string | null>(null);
  const memory = isMemoryFile(file.ref);
  const read = useMemo(() => (memory ? readMemory(file.draft) : null), [memory, file.draft]);
  const body = useMemo(() => splitFrontmatter(file.draft).body, [file.draft]);
  const dirty = isDirty(file);
  const readOnly = !file.writable;

  const onField = (key: 'name' | 'description' | 'type' | 'why' | 'howToApply', value: string) => {
    if (key === 'why' || key === 'howToApply') setDraft(withSection(file.draft, key, value));
    else setDraft(withField(file.draft, key, value));
  };
  const run = async (action: () => Promise<string | null>) => {
    const failed = await action();
    setActionError(failed);
    if (!failed) setMode('idle');
  };

  return (
    <div className="memory-file-view">
      <div className="memory-toolbar">
        <h3 className="memory-file-title" title={file.ref.name}>
          {file.ref.name}
          {dirty ? <span className="memory-dirty"> — unsaved</span> : null}
          {readOnly ? <span className="memory-badge">read-only</span> : null}
        </h3>
        {!readOnly ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={!dirty || file.saving || file.conflict !== null}
              title="Save (Ctrl+S)"
              onClick={onSave}
            >
              {file.saving ? 'Saving…' : 'Save'}
            </button>
            <button type="button" onClick={() => (setNewName(file.ref.name), setMode('rename'))}>
              Rename
            </button>
            <button type="button" onClick={() => setMode('delete')}>
              Delete
            </button>
          </>
        ) : null}
      </div>
      {mode === 'rename' ? (
        <form
          className="memory-inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (newName.trim() !== '' && newName !== file.ref.name) void run(() => onRename(newName.trim()));
          }}
        >
          <label htmlFor="memory-rename">New name</label>
          <input
            id="memory-rename"
            autoFocus
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), setMode('idle'))}
          />
          <button type="submit" className="primary">
            Rename
          </button>
          <button type="button" onClick={() => setMode('idle')}>
            Cancel
          </button>
        </form>
      ) : null}
      {mode === 'delete' ? (
        <div className="memory-inline-form" role="alertdialog" aria-label="Confirm delete">
          <span>
            Delete {file.ref.name}?{dirty ? ' Your unsaved edits are lost.' : ''} It goes to the trash, where
            you can restore it.
          </span>
          <button type="button" className="danger" autoFocus onClick={() => void run(onDelete)}>
            Delete
          </button>
          <button type="button" onClick={() => setMode('idle')}>
            Cancel
          </button>
        </div>
      ) : null}
      {actionError || file.error ? (
        <p role="alert" className="error-text memory-error">
          {actionError ?? file.error}
        </p>
      ) : null}
      {isIndex(file.ref) ? <IndexGaugeView text={file.draft} /> : null}
      {file.conflict ? (
        <ConflictView
          mine={file.draft}
          theirs={file.conflict.theirs}
          busy={file.saving}
          onKeepMine={onKeepMine}
          onTakeTheirs={onTakeTheirs}
        />
      ) : null}
      {read ? (
        <FrontmatterForm fields={read.fields} errors={read.errors} readOnly={readOnly} onField={onField} />
      ) : null}
      <div className="memory-split">
        <CodeEditor
          key={`${file.ref.scope}:${file.ref.root}:${file.ref.name}`}
          value={file.draft}
          onChange={setDraft}
          readOnly={readOnly}
          label={`Text of ${file.ref.name}`}
        />
        <div className="memory-preview" aria-label="Preview" tabIndex={0}>
          <Markdown text={body} />
        </div>
      </div>
    </div>
  );
}

export type { FileRef };
