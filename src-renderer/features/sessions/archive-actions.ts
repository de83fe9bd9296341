import { IpcRequestError } from '@shared/domain/errors';
import type { StoredSession } from '@shared/ipc/contract/sessions';
import { getClient } from '../../ipc/client';
import { forgetSessionLocally } from '../../stores/forget-session';
import { showToast, useStore } from '../../stores/store';

/** Runs a request; a failure (e.g. "still working; stop it first") becomes a toast and `undefined`. */
async function attempt<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    showToast(
      `${what}: ${error instanceof IpcRequestError || error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

const projectId = () => useStore.getState().project?.id ?? null;

export async function archiveSession(sessionId: string): Promise<boolean> {
  const p = projectId();
  if (!p) return false;
  const done = await attempt('Archiving the session', () =>
    getClient().invoke('sessions.archive', { projectId: p, sessionId }),
  );
  if (done) forgetSessionLocally(sessionId);
  return done !== undefined;
}

/** Moves a listed or archived session to the trash (restorable from the Trash view). */
export async function trashSession(sessionId: string): Promise<boolean> {
  const p = projectId();
  if (!p) return false;
  const done = await attempt('Deleting the session', () =>
    getClient().invoke('sessions.delete', { projectId: p, sessionId }),
  );
  if (done) forgetSessionLocally(sessionId);
  return done !== undefined;
}

export async function listStored(kind: 'archived' | 'trash'): Promise<StoredSession[] | undefined> {
  const p = projectId();
  if (!p) return undefined;
  return attempt(kind === 'archived' ? 'Listing archived sessions' : 'Listing the trash', () =>
    getClient().invoke(kind === 'archived' ? 'sessions.archived' : 'sessions.trash', { projectId: p }),
  );
}

/** Brings a session back into the list (from the archive or the trash); its tab opens when it is clicked. */
export async function bringBack(kind: 'archived' | 'trash', sessionId: string): Promise<boolean> {
  const p = projectId();
  if (!p) return false;
  const summary = await attempt('Restoring the session', () =>
    getClient().invoke(kind === 'archived' ? 'sessions.unarchive' : 'sessions.restore', {
      projectId: p,
      sessionId,
    }),
  );
  if (!summary) return false;
  useStore.getState().setSession(summary);
  return true;
}

export async function deleteForever(sessionId: string): Promise<boolean> {
  const p = projectId();
  if (!p) return false;
  const done = await attempt('Deleting the session for good', () =>
    getClient().invoke('sessions.deleteForever', { projectId: p, sessionId }),
  );
  return done !== undefined;
}
