import { IpcRequestError } from '@shared/domain/errors';
import type { MemoryFileRef } from '@shared/domain/memory';
import { getClient } from '../../ipc/client';

/**
 * The browser's requests. A file is always named by scope, root and relative name (the main process
 * resolves and checks it); a failure is turned into plain words for the place that asked.
 */
export type FileRef = Required<Pick<MemoryFileRef, 'scope' | 'root' | 'name'>>;

export const refKey = (ref: FileRef): string => `${ref.scope}:${ref.root}:${ref.name}`;
export const sameRef = (a: FileRef | null, b: FileRef | null): boolean =>
  a !== null && b !== null && refKey(a) === refKey(b);

export function problem(error: unknown): string {
  if (error instanceof IpcRequestError) {
    const details = error.details.length > 0 ? ` (${error.details.join('; ')})` : '';
    return `${error.message}${details}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export const memoryApi = {
  tree: (projectId: string) => getClient().invoke('memory.tree', { projectId }),
  read: (projectId: string, ref: FileRef) => getClient().invoke('memory.read', { projectId, ...ref }),
  write: (projectId: string, ref: FileRef, text: string, baseVersion: string | null) =>
    getClient().invoke('memory.write', { projectId, ...ref, text, baseVersion }),
  create: (projectId: string, ref: FileRef, type?: 'user' | 'feedback' | 'project' | 'reference') =>
    getClient().invoke('memory.create', { projectId, ...ref, ...(type ? { type } : {}) }),
  rename: (projectId: string, ref: FileRef, newName: string) =>
    getClient().invoke('memory.rename', { projectId, ...ref, newName }),
  remove: (projectId: string, ref: FileRef, baseVersion: string | null) =>
    getClient().invoke('memory.delete', { projectId, ...ref, baseVersion }),
  trash: (projectId: string, scope: FileRef['scope'], root: number) =>
    getClient().invoke('memory.trash', { projectId, scope, root }),
  restore: (projectId: string, scope: FileRef['scope'], root: number, id: string) =>
    getClient().invoke('memory.restore', { projectId, scope, root, id }),
  loaded: (sessionId: string) => getClient().invoke('memory.loaded', { sessionId }),
  consolidate: (projectId: string) => getClient().invoke('memory.consolidate', { projectId }),
  watch: (projectId: string) => getClient().invoke('memory.watch', { projectId }),
  unwatch: (projectId: string) => getClient().invoke('memory.unwatch', { projectId }),
  onChanged: (
    listener: (change: { projectId: string; scope: FileRef['scope']; root: number; name: string }) => void,
  ) => getClient().on('memory.changed', listener),
};
