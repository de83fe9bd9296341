import { useCallback, useRef, useState } from 'react';
import { memoryApi, problem, sameRef, type FileRef } from './memory-api';

/** The file in the editor: what disk had when loaded (`base`, `version`) and the person's `draft`. */
export interface OpenFile {
  ref: FileRef;
  base: string;
  version: string;
  writable: boolean;
  draft: string;
  /**
   * The file changed on disk while the draft had unsaved edits (or a save found it changed): both
   * versions are shown until the person keeps theirs or takes the disk's. `theirs` null: deleted.
   */
  conflict: { theirs: string | null; version: string | null } | null;
  /** The last save's or load's failure, in words. */
  error: string | null;
  saving: boolean;
}

export const isDirty = (f: OpenFile | null): boolean => f !== null && f.draft !== f.base;

/**
 * Loading, editing, saving and live reload of one file. A change on disk replaces a clean file at
 * once; with unsaved edits it becomes a conflict, never a silent overwrite in either direction.
 */
export function useOpenFile(projectId: string, onSaved: () => void) {
  const [file, setFileState] = useState<OpenFile | null>(null);
  // Event handlers read the current file through the ref, not a stale closure.
  const ref = useRef<OpenFile | null>(null);
  const setFile = useCallback((next: OpenFile | null | ((f: OpenFile | null) => OpenFile | null)) => {
    const value = typeof next === 'function' ? next(ref.current) : next;
    ref.current = value;
    setFileState(value);
  }, []);

  const open = useCallback(
    async (target: FileRef): Promise<string | null> => {
      try {
        const content = await memoryApi.read(projectId, target);
        setFile({
          ref: target,
          base: content.text,
          version: content.version,
          writable: content.writable,
          draft: content.text,
          conflict: null,
          error: null,
          saving: false,
        });
        return null;
      } catch (error) {
        return problem(error);
      }
    },
    [projectId, setFile],
  );

  const setDraft = useCallback(
    (draft: string) => setFile((f) => (f ? { ...f, draft, error: null } : f)),
    [setFile],
  );

  /** Writes `text` over the version named; a conflict answer shows both versions. */
  const write = useCallback(
    async (text: string, baseVersion: string | null) => {
      const current = ref.current;
      if (!current) return;
      setFile({ ...current, saving: true, error: null });
      try {
        const result = await memoryApi.write(projectId, current.ref, text, baseVersion);
        const now = ref.current;
        if (!now || !sameRef(now.ref, current.ref)) return;
        if (result.kind === 'saved') {
          // The draft may have moved on while the write was in flight: only the written text is saved.
          setFile({ ...now, base: text, version: result.version, conflict: null, saving: false });
          onSaved();
        } else {
          setFile({
            ...now,
            saving: false,
            conflict: { theirs: result.diskText, version: result.diskVersion },
            error: result.message,
          });
        }
      } catch (error) {
        setFile((f) => (f ? { ...f, saving: false, error: `Not saved: ${problem(error)}` } : f));
      }
    },
    [projectId, setFile, onSaved],
  );

  const save = useCallback(async () => {
    const f = ref.current;
    if (!f || !f.writable || f.saving || f.conflict) return;
    await write(f.draft, f.version);
  }, [write]);

  /** Mine over theirs, knowingly: the write names the disk's version it replaces. */
  const keepMine = useCallback(async () => {
    const f = ref.current;
    if (!f?.conflict) return;
    await write(f.draft, f.conflict.version);
  }, [write]);

  const takeTheirs = useCallback(() => {
    const f = ref.current;
    if (!f?.conflict) return;
    if (f.conflict.theirs === null || f.conflict.version === null) {
      setFile(null);
      return;
    }
    const theirs = f.conflict.theirs;
    setFile({ ...f, base: theirs, draft: theirs, version: f.conflict.version, conflict: null, error: null });
  }, [setFile]);

  /** `memory.changed` for the open file: re-read it and reload or show the conflict. */
  const diskChanged = useCallback(async () => {
    const f = ref.current;
    if (!f) return;
    let theirs: string | null = null;
    let version: string | null = null;
    try {
      const content = await memoryApi.read(projectId, f.ref);
      theirs = content.text;
      version = content.version;
    } catch {
      // Gone (deleted or renamed away): a conflict with nothing on disk.
    }
    const now = ref.current;
    if (!now || !sameRef(now.ref, f.ref) || now.saving) return;
    if (version === now.version) return;
    if (theirs !== null && version !== null && (now.draft === now.base || theirs === now.draft)) {
      // Nothing unsaved to lose (or disk now holds exactly the draft): take the disk's text.
      setFile({
        ...now,
        base: theirs,
        draft: now.draft === now.base ? theirs : now.draft,
        version,
        conflict: null,
      });
      return;
    }
    if (theirs === null && now.draft === now.base) {
      setFile(null);
      return;
    }
    setFile({ ...now, conflict: { theirs, version } });
  }, [projectId, setFile]);

  const current = useCallback(() => ref.current, []);

  return {
    file,
    current,
    open,
    setDraft,
    save,
    keepMine,
    takeTheirs,
    diskChanged,
    close: () => setFile(null),
    setFile,
  };
}
