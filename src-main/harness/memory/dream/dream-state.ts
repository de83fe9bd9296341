import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * autoDream's bookkeeping, one small JSON file in the memory directory (a dot file, so neither recall
 * nor the memory browser lists it):
 * - `lastConsolidatedAt`: when a consolidation last finished (ISO), null before the first;
 * - `sessionsSince`: sessions started in this project since then.
 *
 * The session counter lives here, beside the memories it is about, rather than in a per-app file:
 * every process and every worktree of the repository shares the memory directory, so they share the
 * count too. It is bumped once per new session (not on resume) by {@link noteSessionStart}, which is
 * also when autoDream is checked (auto-dream.ts). Two processes bumping at the same instant may lose
 * one count; the gate is "at least 5", so that only delays a consolidation by a session.
 */
export interface DreamState {
  lastConsolidatedAt: string | null;
  sessionsSince: number;
}

export const DREAM_STATE_FILE = '.dream-state.json';

export function dreamStatePath(memoryDir: string): string {
  return path.join(memoryDir, DREAM_STATE_FILE);
}

/** The state on disk; a missing or unreadable file is a project that never consolidated. */
export async function readDreamState(memoryDir: string): Promise<DreamState> {
  try {
    const data = JSON.parse(await readFile(dreamStatePath(memoryDir), 'utf8')) as Partial<DreamState>;
    const at =
      typeof data.lastConsolidatedAt === 'string' && !Number.isNaN(Date.parse(data.lastConsolidatedAt));
    const n = data.sessionsSince;
    return {
      lastConsolidatedAt: at ? (data.lastConsolidatedAt as string) : null,
      sessionsSince: typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0,
    };
  } catch {
    return { lastConsolidatedAt: null, sessionsSince: 0 };
  }
}

/** Writes the state whole (temp file + rename), so a reader never sees half a file. */
export async function writeDreamState(memoryDir: string, state: DreamState): Promise<void> {
  await mkdir(memoryDir, { recursive: true });
  const tmp = `${dreamStatePath(memoryDir)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, `${JSON.stringify(state)}\n`);
  await rename(tmp, dreamStatePath(memoryDir));
}

/** Counts one more session since the last consolidation; returns the new state. */
export async function noteSessionStart(memoryDir: string): Promise<DreamState> {
  const state = await readDreamState(memoryDir);
  const next = { ...state, sessionsSince: state.sessionsSince + 1 };
  await writeDreamState(memoryDir, next);
  return next;
}
