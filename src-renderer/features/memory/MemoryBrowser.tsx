import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { MemoryScopeView, MemoryTree } from '@shared/domain/memory';
import { showToast, useStore } from '../../stores/store';
import { FileEditor } from './FileEditor';
import { LoadedView } from './LoadedView';
import { memoryApi, problem, refKey, sameRef, type FileRef } from './memory-api';
import { NewFileForm } from './NewFileForm';
import { ScopeTree } from './ScopeTree';
import { TrashView } from './TrashView';
import { readMemory } from './frontmatter';
import { filterTree, isMemoryFile } from './tree';
import { isDirty, useOpenFile } from './use-open-file';
import './memory.css';

type Pane =
  { kind: 'file' } | { kind: 'new'; scope: MemoryScopeView } | { kind: 'trash' } | { kind: 'loaded' };

/** The memory browser for the open project (the store only says whether it is open). */
export default function MemoryBrowser() {
  const project = useStore((s) => s.project);
  if (!project) return null;
  return <Browser key={project.id} projectId={project.id} projectName={project.name} />;
}

function Browser({ projectId, projectName }: { projectId: string; projectName: string }) {
  const activeSession = useStore((s) => s.tabs.active);
  const [tree, setTree] = useState<MemoryTree | null>(null);
  const [treeError, setTreeError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [pane, setPane] = useState<Pane>({ kind: 'file' });
  const [pendingDiscard, setPendingDiscard] = useState<{ what: string; go: () => void } | null>(null);
  const [consolidating, setConsolidating] = useState(false);
  const filterRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  const loadTree = useCallback(
    () =>
      memoryApi.tree(projectId).then(
        (t) => {
          setTree(t);
          setTreeError(null);
        },
        (e: unknown) => setTreeError(problem(e)),
      ),
    [projectId],
  );
  const { file, current, open, setDraft, save, keepMine, takeTheirs, diskChanged, close, setFile } =
    useOpenFile(projectId, () => void loadTree());

  // Live: the scope roots are watched while the browser is open; a change reloads the tree and,
  // for the open file, its text (or shows both versions when there are unsaved edits).
  useEffect(() => {
    void loadTree();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = memoryApi.onChanged((change) => {
      if (change.projectId !== projectId) return;
      clearTimeout(timer);
      timer = setTimeout(() => void loadTree(), 100);
      const shown = current();
      if (shown && sameRef(shown.ref, change)) void diskChanged();
    });
    memoryApi.watch(projectId).catch((e: unknown) => showToast(`Watching memory files: ${problem(e)}`));
    return () => {
      off();
      clearTimeout(timer);
      memoryApi.unwatch(projectId).catch(() => undefined);
    };
  }, [projectId, loadTree, diskChanged, current]);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    filterRef.current?.focus();
    return () => previous?.focus();
  }, []);

  /** Runs `go` at once, or after the person agrees to drop the open file's unsaved edits. */
  const guard = (what: string, go: () => void) => {
    if (isDirty(current()) && current()?.writable) setPendingDiscard({ what, go });
    else go();
  };
  const requestClose = () =>
    guard('close the memory browser', () => useStore.getState().setMemoryOpen(false));
  const openFile = (ref: FileRef) => {
    if (sameRef(current()?.ref ?? null, ref) && pane.kind === 'file') return;
    guard(`open ${ref.name}`, () => {
      setPane({ kind: 'file' });
      void open(ref).then((failed) => failed && showToast(`Opening ${ref.name}: ${failed}`));
    });
  };

  /** Saves, unless a memory file's frontmatter still has problems (they are shown beside the fields). */
  const trySave = () => {
    const f = current();
    if (f && isMemoryFile(f.ref) && Object.keys(readMemory(f.draft).errors).length > 0) {
      setFile({ ...f, error: 'Not saved: fix the fields marked in red first.' });
      return;
    }
    void save();
  };

  // Ctrl+S and Ctrl+P belong to the browser while it is open, wherever the focus is (the print
  // dialog and the page's own save would be no use here).
  const keys = useRef({ trySave });
  useLayoutEffect(() => {
    keys.current.trySave = trySave;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod || e.shiftKey || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 's') {
        e.preventDefault();
        keys.current.trySave();
      } else if (key === 'p') {
        e.preventDefault();
        filterRef.current?.focus();
        filterRef.current?.select();
      }
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, []);

  const scopes = useMemo(() => filterTree(tree?.scopes ?? [], query), [tree, query]);

  const consolidate = async () => {
    setConsolidating(true);
    try {
      const result = await memoryApi.consolidate(projectId);
      showToast(result.message);
      await loadTree();
    } catch (e) {
      showToast(`Consolidating memories: ${problem(e)}`);
    } finally {
      setConsolidating(false);
    }
  };

  const create = async (
    scope: MemoryScopeView,
    name: string,
    root: number,
    type?: Parameters<typeof memoryApi.create>[2],
  ) => {
    const ref: FileRef = { scope: scope.scope, root, name };
    try {
      const content = await memoryApi.create(projectId, ref, type);
      setFile({
        ref: { scope: content.scope, root: content.root, name: content.name },
        base: content.text,
        draft: content.text,
        version: content.version,
        writable: content.writable,
        conflict: null,
        error: null,
        saving: false,
      });
      setPane({ kind: 'file' });
      void loadTree();
      // The main process watches only folders that exist; the first file of a scope makes its folder,
      // so the watch is set up again (a count of one per window: unwatch drops it, watch builds anew).
      if (scope.roots.find((r) => r.index === root)?.exists === false)
        void memoryApi
          .unwatch(projectId)
          .then(() => memoryApi.watch(projectId))
          .catch(() => undefined);
      return null;
    } catch (e) {
      return problem(e);
    }
  };

  const rename = async (newName: string): Promise<string | null> => {
    const f = current();
    if (!f) return null;
    try {
      const info = await memoryApi.rename(projectId, f.ref, newName);
      // The text did not change, so neither did its version: unsaved edits stay in the editor.
      setFile((now) =>
        now ? { ...now, ref: { scope: info.scope, root: info.root, name: info.name } } : now,
      );
      void loadTree();
      return null;
    } catch (e) {
      return `Not renamed: ${problem(e)}`;
    }
  };

  const remove = async (): Promise<string | null> => {
    const f = current();
    if (!f) return null;
    try {
      await memoryApi.remove(projectId, f.ref, f.version);
      close();
      showToast(`${f.ref.name} moved to the trash.`);
      void loadTree();
      return null;
    } catch (e) {
      return `Not deleted: ${problem(e)}`;
    }
  };

  return (
    <div className="overlay memory-overlay">
      <div
        ref={rootRef}
        role="dialog"
        aria-modal="true"
        aria-label="Memory"
        className="memory-browser"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && !e.defaultPrevented) {
            e.stopPropagation();
            requestClose();
          }
        }}
      >
        <header className="memory-header">
          <h2>
            Memory <span className="muted">— {projectName}</span>
          </h2>
          <span className="spacer" />
          <button
            type="button"
            aria-pressed={pane.kind === 'loaded'}
            onClick={() => setPane(pane.kind === 'loaded' ? { kind: 'file' } : { kind: 'loaded' })}
          >
            Loaded in this session
          </button>
          <button
            type="button"
            aria-pressed={pane.kind === 'trash'}
            onClick={() => setPane(pane.kind === 'trash' ? { kind: 'file' } : { kind: 'trash' })}
          >
            Trash
          </button>
          <button
            type="button"
            disabled={consolidating}
            title="Merge, de-duplicate and tidy the memories now (autoDream)"
            onClick={() => void consolidate()}
          >
            {consolidating ? 'Consolidating…' : 'Consolidate now'}
          </button>
          <button type="button" aria-label="Close memory browser" title="Close (Esc)" onClick={requestClose}>
            Close
          </button>
        </header>
        {pendingDiscard ? (
          <div className="memory-inline-form memory-discard" role="alertdialog" aria-label="Unsaved edits">
            <span>
              {file?.ref.name} has unsaved edits. Discard them to {pendingDiscard.what}?
            </span>
            <button
              type="button"
              className="danger"
              onClick={() => {
                const go = pendingDiscard.go;
                setPendingDiscard(null);
                close();
                go();
              }}
            >
              Discard edits
            </button>
            <button type="button" autoFocus onClick={() => setPendingDiscard(null)}>
              Keep editing
            </button>
          </div>
        ) : null}
        <div className="memory-body">
          <aside className="memory-sidebar">
            <input
              ref={filterRef}
              type="search"
              className="memory-filter"
              aria-label="Filter files"
              placeholder="Filter files (Ctrl+P)"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && query !== '') {
                  e.stopPropagation();
                  setQuery('');
                }
              }}
            />
            {treeError ? (
              <p role="alert" className="error-text">
                {treeError}
              </p>
            ) : tree === null ? (
              <p className="muted">Loading…</p>
            ) : (
              <ScopeTree
                scopes={scopes}
                selected={file?.ref ?? null}
                filtering={query.trim() !== ''}
                onOpen={openFile}
                onNew={(scope) => guard(`start a new file`, () => setPane({ kind: 'new', scope }))}
              />
            )}
          </aside>
          <main className="memory-main">
            {pane.kind === 'trash' ? (
              <TrashView
                projectId={projectId}
                scopes={tree?.scopes ?? []}
                onRestored={(entry) => {
                  showToast(`${entry.name} restored.`);
                  void loadTree();
                }}
              />
            ) : pane.kind === 'loaded' ? (
              <LoadedView sessionId={activeSession} scopes={tree?.scopes ?? []} onOpen={openFile} />
            ) : pane.kind === 'new' ? (
              <NewFileForm
                scope={pane.scope}
                onCreate={(name, root, type) => create(pane.scope, name, root, type)}
                onCancel={() => setPane({ kind: 'file' })}
              />
            ) : file ? (
              <FileEditor
                key={refKey(file.ref)}
                file={file}
                setDraft={setDraft}
                onSave={trySave}
                onKeepMine={() => void keepMine()}
                onTakeTheirs={takeTheirs}
                onRename={rename}
                onDelete={remove}
              />
            ) : (
              <p className="muted memory-empty">
                Choose a file on the left, or start a new memory with “+ New” under Auto-memory.
              </p>
            )}
          </main>
        </div>
      </div>
    </div>
  );
}
