import { useCallback, useEffect, useRef, useState } from 'react';
import { ArrowUp, Folder } from 'lucide-react';
import type { DirectoryListing } from '@shared/domain/project';
import { Dialog } from '../../components/Dialog';
import { getClient } from '../../ipc/client';
import { openProject } from '../../ipc/actions';
import { useStore } from '../../stores/store';

/**
 * Chooses a project folder. The browser cannot see the disk in serve mode, so folders are listed by
 * the main process; the desktop app also offers its native picker.
 */
export function OpenProjectDialog() {
  const appInfo = useStore((s) => s.appInfo);
  const recent = useStore((s) => s.recent);
  const current = useStore((s) => s.project);
  const [path, setPath] = useState(current?.path ?? appInfo?.homeDir ?? '');
  const [listing, setListing] = useState<DirectoryListing | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => useStore.setState({ dialog: null });
  // A listing answers later than it is asked for: only the latest one shows, and it never replaces a
  // path typed meanwhile (typing fast after the dialog opened, the home folder's listing used to
  // arrive after the typed path and overwrite it, so Open opened the home folder instead).
  const asked = useRef(0);
  const typed = useRef(0);

  const browse = useCallback((dir: string | undefined) => {
    const ask = ++asked.current;
    const typedBefore = typed.current;
    getClient()
      .invoke('fs.listDirectory', dir ? { path: dir } : {})
      .then(
        (result) => {
          if (ask !== asked.current) return;
          setListing(result);
          if (typed.current === typedBefore) setPath(result.path);
          setProblem(null);
        },
        (error: unknown) => {
          if (ask === asked.current) setProblem((error as Error).message);
        },
      );
  }, []);

  // List the starting folder once, when the dialog opens.
  const start = useRef(current?.path ?? appInfo?.homeDir);
  useEffect(() => browse(start.current), [browse]);

  const pickNative = async () => {
    try {
      const { path: picked } = await getClient().invoke('fs.pickDirectory', {});
      if (picked) await openProject(picked);
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <Dialog label="Open project" onClose={close} className="open-project">
      <h2>Open project</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void openProject(path.trim());
        }}
      >
        <label>
          Folder path
          <input
            value={path}
            onChange={(e) => {
              typed.current++;
              setPath(e.target.value);
            }}
            spellCheck={false}
            autoComplete="off"
          />
        </label>
        <div className="row">
          <button type="submit" className="primary" disabled={path.trim() === ''}>
            Open
          </button>
          <button type="button" onClick={() => browse(path.trim() || undefined)}>
            Go to folder
          </button>
          {appInfo?.capabilities.nativeFolderPicker ? (
            <button type="button" onClick={() => void pickNative()}>
              Browse…
            </button>
          ) : null}
          <button type="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
      {problem ? (
        <p role="alert" className="error-text">
          {problem}
        </p>
      ) : null}
      {listing ? (
        <nav aria-label="Folders" className="folder-list">
          <ul>
            {listing.parent ? (
              <li>
                <button
                  type="button"
                  className="link icon-button"
                  onClick={() => browse(listing.parent ?? undefined)}
                >
                  <ArrowUp size={14} aria-hidden="true" />
                  Parent folder
                </button>
              </li>
            ) : null}
            {listing.directories.map((d) => (
              <li key={d.path}>
                <button
                  type="button"
                  className="link icon-button"
                  onClick={() => browse(d.path)}
                  onDoubleClick={() => void openProject(d.path)}
                >
                  <Folder size={14} aria-hidden="true" />
                  {d.name}
                </button>
              </li>
            ))}
          </ul>
          {listing.truncated ? <p className="muted">Only the first 1,000 folders are listed.</p> : null}
        </nav>
      ) : null}
      {recent.length > 0 ? (
        <section aria-label="Recent projects in dialog">
          <h3>Recent</h3>
          <ul>
            {recent.map((p) => (
              <li key={p.path}>
                <button type="button" className="link" onClick={() => void openProject(p.path)}>
                  {p.name}
                </button>{' '}
                <span className="muted">{p.path}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Dialog>
  );
}
