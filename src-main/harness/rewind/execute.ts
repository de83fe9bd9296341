import { randomUUID } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, errnoCode } from '../../platform/errors';
import type { TranscriptLine } from '../session/transcript-file';
import { historyDir, readBlob, storeBlob } from './history-store';
import { refusalFor, type PlanContext, type RewindPlan } from './plan';

export interface RewindResult {
  restored: string[];
  deleted: string[];
  /** Files left as they are, with why. */
  skipped: { path: string; reason: string }[];
  /** Hashes (in the session's file-history folder) of content a rewind replaced, by path. */
  replacedKept: Record<string, string>;
}

/** Writes `content` to `file` whole or not at all: a temporary file beside it, then a rename. */
function writeAtomic(file: string, content: Buffer): void {
  let mode: number | undefined;
  try {
    const info = lstatSync(file);
    if (info.isFile()) mode = info.mode & 0o777;
  } catch {
    // A file the agents deleted or that is gone: made anew.
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.rewind-tmp`);
  try {
    writeFileSync(tmp, content, { flag: 'wx', ...(mode === undefined ? {} : { mode }) });
    // A rename replaces the name itself: a link swapped in at `file` is replaced, never followed.
    renameSync(tmp, file);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // Never made.
    }
    throw new AppError('IO_ERROR', `Could not restore ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Carries out a plan made by planRewind, just now, from the same transcript: unless `confirmed`, a
 * plan that would lose someone's change (or skip a file, or HEAD moved) is refused and nothing is
 * written. Files are put back one by one atomically, each checked again right before its write;
 * what a write replaces is kept in the session folder first. Git is never run: no commit, branch
 * or HEAD moves. Then the `cut` line is appended, which takes the message and everything after it
 * out of the conversation (cut-lines.ts).
 */
export function executeRewind(
  plan: RewindPlan,
  ctx: PlanContext & {
    confirmed: boolean;
    /**
     * What the person was shown when they confirmed: the files marked (changed since, or left
     * alone) and whether HEAD had moved. Anything marked now that was not then is refused, so a
     * change made while the dialog was open is never overwritten unseen.
     */
    seen?: { flagged: readonly string[]; headMoved: boolean } | undefined;
    cut: (line: Extract<TranscriptLine, { type: 'cut' }>) => void;
  },
): RewindResult {
  if (plan.needsConfirmation && !ctx.confirmed)
    throw new AppError(
      'CONFLICT',
      'Rewinding would lose changes made since (or skip files, or HEAD moved): confirm to go ahead.',
    );
  if (ctx.seen) {
    const shown = new Set(ctx.seen.flagged);
    const unseen = plan.files.filter((f) => (f.changedSince || f.refused !== null) && !shown.has(f.path));
    if (unseen.length > 0 || (plan.headMoved !== null && !ctx.seen.headMoved))
      throw new AppError(
        'CONFLICT',
        `Something changed since the rewind was shown (${unseen.map((f) => f.display).join(', ') || 'HEAD moved'}); nothing was written. Look again and confirm.`,
      );
  }
  const result: RewindResult = { restored: [], deleted: [], skipped: [], replacedKept: {} };
  for (const file of plan.files) {
    const refused = file.refused ?? refusalFor(file.path, ctx);
    if (refused !== null) {
      result.skipped.push({ path: file.path, reason: refused });
      continue;
    }
    const content = file.restoreHash === null ? null : readBlob(ctx.sessionDir, file.restoreHash);
    if (file.restoreHash !== null && content === null) {
      result.skipped.push({
        path: file.path,
        reason: 'its earlier content was not kept in the session folder',
      });
      continue;
    }
    // What is there now (the agents' work, or the person's) stays recoverable.
    let current: Buffer | null = null;
    try {
      const info = lstatSync(file.path);
      if (info.isFile()) current = readFileSync(file.path);
      else if (!info.isSymbolicLink()) {
        result.skipped.push({ path: file.path, reason: 'it is no longer a regular file' });
        continue;
      }
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
    if (current !== null) result.replacedKept[file.path] = storeBlob(historyDir(ctx.sessionDir), current);
    if (content === null) {
      try {
        unlinkSync(file.path);
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error;
      }
      result.deleted.push(file.path);
    } else {
      writeAtomic(file.path, content);
      result.restored.push(file.path);
    }
  }
  ctx.cut({ type: 'cut', fromItemId: plan.messageId, at: new Date().toISOString() });
  return result;
}
