import { useEffect, useRef, useState } from 'react';
import type { AgentFileRef, AgentFilesView } from '@shared/ipc/contract/agent-files';
import { getClient } from '../../ipc/client';
import { loadLatest, problemText } from './page-load';

/**
 * One agent file's raw Markdown in a text box. Save sends it to the main process, which parses it
 * with the sessions' own parser: a fault is shown under the box and the text stays as typed. While
 * the text differs from the file, Escape does nothing (closing would throw the edit away); otherwise
 * it closes the editor, not Settings.
 */
export function AgentEditor({
  projectId,
  fileRef,
  onClose,
  onSaved,
}: {
  projectId: string;
  fileRef: AgentFileRef;
  onClose: () => void;
  onSaved: (view: AgentFilesView) => void;
}) {
  const [loaded, setLoaded] = useState<{ text: string; version: string } | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(
    () =>
      loadLatest(
        getClient().invoke('agentFiles.read', { projectId, ref: fileRef }),
        (file) => {
          setLoaded(file);
          setText(file.text);
          requestAnimationFrame(() => box.current?.focus());
        },
        setError,
      ),
    [projectId, fileRef],
  );

  const save = async () => {
    if (loaded === null) return;
    setSaving(true);
    try {
      const view = await getClient().invoke('agentFiles.save', {
        projectId,
        ref: fileRef,
        text,
        version: loaded.version,
      });
      onSaved(view);
    } catch (e) {
      setError(problemText(e));
      box.current?.focus();
    } finally {
      setSaving(false);
    }
  };
  const dirty = loaded !== null && text !== loaded.text;

  return (
    <form
      className="agentdef-editor"
      aria-label={`Edit ${fileRef.path}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {loaded === null && error === null ? <p className="muted">Loading…</p> : null}
      {loaded ? (
        <textarea
          ref={box}
          aria-label={`Text of ${fileRef.path}`}
          aria-invalid={error !== null}
          aria-describedby={error ? 'agentdef-editor-error' : undefined}
          value={text}
          spellCheck={false}
          rows={14}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // Escape closes the editor, not Settings; with unsaved text it does nothing (no edit lost).
            if (e.key === 'Escape') {
              e.stopPropagation();
              if (!dirty) onClose();
            }
            // Ctrl/Cmd+Enter saves, as in the composer's multi-line boxes.
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void save();
            }
          }}
        />
      ) : null}
      {error ? (
        <p id="agentdef-editor-error" role="alert" className="error-text agentdef-editor-error">
          {error}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" disabled={loaded === null || saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
