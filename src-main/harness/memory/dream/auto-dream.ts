import { existsSync } from 'node:fs';
import type { TaskView } from '@shared/domain/session';
import type { TrackedTask } from '../../tasks/task-manager';
import { consolidateLocked, type ConsolidateDeps, type DreamResult } from './consolidate';
import { acquireConsolidationLock } from './consolidation-lock';
import { noteSessionStart, readDreamState } from './dream-state';
import { checkDreamGates, type DreamGate, type GateResult } from './gates';

/** Where the dream task is listed: a session's TaskManager (its `track`). */
export interface DreamTaskHost {
  track(o: { kind: TaskView['kind']; description: string; command: string; stop: () => void }): TrackedTask;
}

export interface AutoDreamDeps extends Omit<ConsolidateDeps, 'onProgress' | 'now'> {
  now: () => Date;
  tasks?: DreamTaskHost | undefined;
  minHours?: number;
  minSessions?: number;
}

export type AutoDreamOutcome =
  | { started: false; gate: DreamGate | 'locked'; message: string }
  | { started: true; task: string | null; done: Promise<DreamResult> };

/**
 * autoDream: consolidates the memories in the background when every gate passes, cheapest first:
 * enabled (a flag), 24 h since the last run and 5 sessions since (one small file read), then the
 * consolidation lock (an exclusive create). It runs as a `dream` task of the session that triggered
 * it, which can be stopped like any task; the lock is released when it ends either way.
 */
export async function maybeAutoDream(deps: AutoDreamDeps): Promise<AutoDreamOutcome> {
  if (!deps.enabled) return { started: false, gate: 'disabled', message: 'Auto memory is off.' };
  const gates = await checkGatesNow(deps);
  if (!gates.pass) return { started: false, gate: gates.gate, message: gates.message };
  const lock = await acquireConsolidationLock(deps.memoryDir, { now: deps.now, ...deps.lock });
  if (!lock)
    return { started: false, gate: 'locked', message: 'Another process is consolidating these memories.' };
  // Checked again under the lock: another process may have consolidated (and released the lock)
  // between the first check and now, and the gates are what keep it to one run a day.
  const again = await checkGatesNow(deps);
  if (!again.pass) {
    await lock.release();
    return { started: false, gate: again.gate, message: again.message };
  }

  const abort = new AbortController();
  deps.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  const task = deps.tasks?.track({
    kind: 'dream',
    description: 'Consolidating memories',
    command: 'autoDream: merge memories, remove contradictions, rewrite MEMORY.md',
    stop: () => abort.abort(),
  });
  const done = (async () => {
    try {
      const result = await consolidateLocked({
        ...deps,
        signal: abort.signal,
        onProgress: (line) => task?.append(`${line}\n`),
      });
      task?.end(result.ran ? 'completed' : abort.signal.aborted ? 'killed' : 'failed');
      return result;
    } finally {
      await lock.release();
    }
  })();
  return { started: true, task: task?.id ?? null, done };
}

/** The cheap gates against the dream state as it is on disk now. */
async function checkGatesNow(deps: AutoDreamDeps): Promise<GateResult> {
  return checkDreamGates({
    enabled: deps.enabled,
    state: await readDreamState(deps.memoryDir),
    now: deps.now(),
    ...(deps.minHours !== undefined ? { minHours: deps.minHours } : {}),
    ...(deps.minSessions !== undefined ? { minSessions: deps.minSessions } : {}),
  });
}

/**
 * What a session calls once, at its first turn in this process (see recall/memory-recall.ts): counts
 * it, then checks autoDream. Never throws: memory upkeep must not stop a session's work.
 *
 * - `resumed`: a session that already had turns (reopened, `-p --resume`) was counted when it first
 *   ran, so it is not counted again.
 * - `startDream: false` (print mode): the session is counted but no consolidation starts. The process
 *   ends with the run and would kill it, leaving the state as it was, so every later run would start
 *   (and pay for) another discarded one. The next session of the app consolidates instead.
 */
export async function onSessionStart(
  deps: AutoDreamDeps,
  o: { resumed?: boolean; startDream?: boolean } = {},
): Promise<AutoDreamOutcome | null> {
  try {
    // No memory directory yet: nothing to consolidate, and no folder is made just to count in.
    if (!deps.enabled || !existsSync(deps.memoryDir)) return null;
    if (!o.resumed) await noteSessionStart(deps.memoryDir);
    if (o.startDream === false) return null;
    return await maybeAutoDream(deps);
  } catch {
    return null;
  }
}
