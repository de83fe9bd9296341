import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const LOCK_FILE = '.consolidate-lock';
/** A holder that has not finished in this long is taken to be stuck (a consolidation takes a minute or two). */
export const LOCK_STALE_MS = 30 * 60 * 1000;

interface LockContent {
  pid: number;
  acquiredAt: string;
  /** Tells this holder's lock from a later one when it is released. */
  token: string;
}

export interface LockOptions {
  pid?: number;
  now?: () => Date;
  staleMs?: number;
  /** Whether a process is running (a dead holder's lock is taken over at once). */
  isAlive?: (pid: number) => boolean;
}

export interface HeldLock {
  readonly path: string;
  /** Removes the lock if it is still this holder's (it may have been taken over as stale). */
  release(): Promise<void>;
}

export function lockPath(memoryDir: string): string {
  return path.join(memoryDir, LOCK_FILE);
}

/** `kill(pid, 0)` checks existence without signalling; EPERM means it exists under another user. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The consolidation lock: one exclusive file in the memory directory holding the holder's pid and
 * start time, so two processes (two windows, the app and `carapace -p`) never consolidate at once.
 *
 * Taking it is an exclusive create: the content is written to a private temp file first and then
 * hard-linked to the lock name, which fails if the name exists (O_EXCL semantics, and a reader never
 * sees a half-written lock). A lock whose holder is dead, or older than `staleMs`, is taken over: it
 * is renamed aside (only one contender's rename can succeed), checked to be the very lock judged
 * stale (else it is someone's fresh lock, which is linked back), and the exclusive create is tried
 * again. Returns null when another live process holds it.
 */
export async function acquireConsolidationLock(
  memoryDir: string,
  o: LockOptions = {},
): Promise<HeldLock | null> {
  const file = lockPath(memoryDir);
  const now = o.now ?? (() => new Date());
  const isAlive = o.isAlive ?? processAlive;
  const staleMs = o.staleMs ?? LOCK_STALE_MS;
  const content: LockContent = {
    pid: o.pid ?? process.pid,
    acquiredAt: now().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  await mkdir(memoryDir, { recursive: true });
  const tmp = `${file}.${content.token}.tmp`;
  await writeFile(tmp, JSON.stringify(content));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await tryLink(tmp, file)) return heldLock(file, content.token);
      const current = await readLock(file);
      if (current === undefined) continue; // released meanwhile: try again
      if (!isStale(current, now(), staleMs, isAlive)) return null;
      if (!(await takeAside(file, current.raw))) return null;
    }
    return null;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

async function tryLink(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The lock's content (`parsed` null when it is not ours to read), or undefined when there is none. */
async function readLock(file: string): Promise<{ raw: string; parsed: LockContent | null } | undefined> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const data = JSON.parse(raw) as Partial<LockContent>;
    const ok =
      typeof data.pid === 'number' && typeof data.acquiredAt === 'string' && typeof data.token === 'string';
    return { raw, parsed: ok ? (data as LockContent) : null };
  } catch {
    return { raw, parsed: null };
  }
}

function isStale(
  lock: { parsed: LockContent | null },
  now: Date,
  staleMs: number,
  isAlive: (pid: number) => boolean,
): boolean {
  // A lock we cannot read was not written by this code (the temp-then-link write is whole): stale.
  if (!lock.parsed) return true;
  const age = now.getTime() - Date.parse(lock.parsed.acquiredAt);
  return !isAlive(lock.parsed.pid) || !(age < staleMs);
}

/** Moves the stale lock out of the way; false if what was moved turned out to be a fresh lock. */
async function takeAside(file: string, staleRaw: string): Promise<boolean> {
  const aside = `${file}.${randomBytes(8).toString('hex')}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true; // someone else moved it: retry
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => null);
  if (moved === staleRaw) {
    await unlink(aside).catch(() => undefined);
    return true;
  }
  // Between our read and our rename another process took the lock over: give it back and yield.
  await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return false;
}

function heldLock(file: string, token: string): HeldLock {
  return {
    path: file,
    release: async () => {
      const current = await readLock(file);
      if (current?.parsed?.token === token) await unlink(file).catch(() => undefined);
    },
  };
}
