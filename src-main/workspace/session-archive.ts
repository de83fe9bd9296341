import { existsSync, lstatSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { StoredSession } from '@shared/ipc/contract/sessions';
import { readJsonFile, writeJsonFileAtomic } from '../platform/json-file';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import type { EventHub } from './event-hub';
import { SessionIndex } from './session-index';

export interface SessionArchiveDeps {
  /** The folder of a known project's sessions (throws NOT_FOUND for a project never opened). */
  projectDir(projectId: string): string;
  /** The app's trash folder (under its data folder, never inside a project). */
  trashDir: string;
  hub: EventHub;
  logger: Logger;
  /**
   * Lets go of a session before its files move: throws CONFLICT while it works, else drops it from
   * memory (its engine closed, its file no longer written). Returns how to take it back if the move
   * then fails, so the session stays reachable where its files still are.
   */
  release(sessionId: string): () => void;
}

/** Archived sessions sit beside the others, in a folder the session list does not read. */
export const ARCHIVE_FOLDER = 'archived';

/** Session ids are UUIDs; anything else (`..`, slashes, dots) never becomes part of a path. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

const TrashNote = z.object({ trashedAt: z.string() });

/**
 * Archive and trash for sessions. A session's files are its transcript `<id>.jsonl` and its folder
 * `<id>/` (sub-agents, team, mail); archiving moves both into the project's `archived/` folder and
 * deleting moves them into the app's trash, so both are undone by moving them back. Only "delete
 * forever" erases anything, and only inside the trash.
 *
 * Hostile input: an id must look like an id, every path is checked to stay inside its folder, and a
 * session whose file or folder is a symbolic link (or whose archive or trash folder is one) is refused,
 * so nothing outside Carapace's own folders is ever moved or erased.
 */
export class SessionArchive {
  constructor(private readonly deps: SessionArchiveDeps) {}

  /** The project's archived sessions, newest first. */
  archived(projectId: string): StoredSession[] {
    return this.listIn(this.archiveDir(projectId, false), false);
  }

  /** The project's trashed sessions, most recently trashed first. */
  trash(projectId: string): StoredSession[] {
    return this.listIn(this.trashDir(projectId, false), true);
  }

  archive(projectId: string, sessionId: string): StoredSession {
    const from = this.deps.projectDir(projectId);
    this.requireListed(from, sessionId);
    const to = this.archiveDir(projectId, true);
    this.moveReleased(from, to, sessionId);
    this.deps.hub.emit('sessions.removed', { projectId, sessionId });
    return this.entry(to, sessionId, false);
  }

  unarchive(projectId: string, sessionId: string): void {
    const from = this.archiveDir(projectId, false);
    this.requireListed(from, sessionId, 'archived');
    this.move(from, this.deps.projectDir(projectId), sessionId);
  }

  /** Moves a listed or archived session into the trash. */
  delete(projectId: string, sessionId: string): StoredSession {
    const listed = this.deps.projectDir(projectId);
    const from = this.has(listed, sessionId) ? listed : this.archiveDir(projectId, false);
    this.requireListed(from, sessionId);
    const to = this.trashDir(projectId, true);
    if (from === listed) this.moveReleased(from, to, sessionId);
    else this.move(from, to, sessionId);
    writeJsonFileAtomic(noteFile(to, sessionId), { trashedAt: new Date().toISOString() });
    if (from === listed) this.deps.hub.emit('sessions.removed', { projectId, sessionId });
    return this.entry(to, sessionId, true);
  }

  /** Brings a trashed session back into the project's list. */
  restore(projectId: string, sessionId: string): void {
    const from = this.trashDir(projectId, false);
    this.requireListed(from, sessionId, 'in the trash');
    this.move(from, this.deps.projectDir(projectId), sessionId);
    rmSync(noteFile(from, sessionId), { force: true });
  }

  /** Erases a trashed session. Links inside its folder are removed as links: their targets stay. */
  deleteForever(projectId: string, sessionId: string): void {
    const dir = this.trashDir(projectId, false);
    this.requireListed(dir, sessionId, 'in the trash');
    for (const target of [folderOf(dir, sessionId), transcriptOf(dir, sessionId), noteFile(dir, sessionId)])
      rmSync(target, { recursive: true, force: true });
  }

  private archiveDir(projectId: string, create: boolean): string {
    return this.realFolder(path.join(this.deps.projectDir(projectId), ARCHIVE_FOLDER), create);
  }

  private trashDir(projectId: string, create: boolean): string {
    // The project id is a slug of letters, digits and dashes; checked all the same.
    if (!/^[A-Za-z0-9_-]{1,500}$/.test(projectId))
      throw new AppError('INVALID_INPUT', `"${projectId}" is not a project id.`);
    this.realFolder(this.deps.trashDir, create);
    return this.realFolder(path.join(this.deps.trashDir, projectId), create);
  }

  /** A folder Carapace made: never a link (which could lead the files anywhere). */
  private realFolder(dir: string, create: boolean): string {
    if (create) mkdirSync(dir, { recursive: true });
    const stat = lstatIf(dir);
    if (stat && !stat.isDirectory())
      throw new AppError('FORBIDDEN', `${dir} is not a plain folder (a link?); nothing was moved.`);
    return dir;
  }

  private has(dir: string, sessionId: string): boolean {
    return SAFE_ID.test(sessionId) && lstatIf(transcriptOf(dir, sessionId)) !== null;
  }

  /** The session's files in `dir` exist and are plain files and folders. */
  private requireListed(dir: string, sessionId: string, where = 'listed'): void {
    if (!SAFE_ID.test(sessionId))
      throw new AppError('INVALID_INPUT', `"${sessionId.slice(0, 100)}" is not a session id.`);
    const file = lstatIf(transcriptOf(dir, sessionId));
    if (!file) throw new AppError('NOT_FOUND', `There is no session ${sessionId} ${where} here.`);
    const folder = lstatIf(folderOf(dir, sessionId));
    if (!file.isFile() || (folder && !folder.isDirectory()))
      throw new AppError(
        'FORBIDDEN',
        `Session ${sessionId}'s files include a link or something that is not a plain file; nothing was moved.`,
      );
  }

  /**
   * Moves a listed session's files, letting go of it in memory first (it must not write while they
   * move). Whatever can be checked is checked before it is let go; if the move still fails, it is
   * taken back, so it does not vanish from reach while its files stay where they were.
   */
  private moveReleased(from: string, to: string, sessionId: string): void {
    this.requireFree(to, sessionId);
    const takeBack = this.deps.release(sessionId);
    try {
      this.move(from, to, sessionId);
    } catch (error) {
      takeBack();
      throw error;
    }
  }

  private requireFree(to: string, sessionId: string): void {
    for (const dest of [folderOf(to, sessionId), transcriptOf(to, sessionId)])
      if (existsSync(dest))
        throw new AppError('CONFLICT', `A session ${sessionId} is already there; nothing was moved.`);
  }

  /** Moves the transcript and the folder; the folder first, so a failure leaves the session whole where it was. */
  private move(from: string, to: string, sessionId: string): void {
    const pairs = [
      [folderOf(from, sessionId), folderOf(to, sessionId)],
      [transcriptOf(from, sessionId), transcriptOf(to, sessionId)],
    ] as const;
    this.requireFree(to, sessionId);
    const moved: (readonly [string, string])[] = [];
    try {
      for (const pair of pairs) {
        if (!lstatIf(pair[0])) continue;
        renameSync(pair[0], pair[1]);
        moved.push(pair);
      }
    } catch (error) {
      for (const [src, dest] of moved.reverse()) {
        try {
          renameSync(dest, src);
        } catch (undo) {
          this.deps.logger.warn(`Could not move ${dest} back: ${(undo as Error).message}`);
        }
      }
      throw new AppError('IO_ERROR', `Session ${sessionId} could not be moved: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  private listIn(dir: string, trashed: boolean): StoredSession[] {
    if (!lstatIf(dir)) return [];
    const out = new SessionIndex(dir, this.deps.logger).list().map(({ meta }) => ({
      id: meta.id,
      title: meta.title,
      model: meta.model,
      updatedAt: meta.updatedAt,
      messageCount: meta.messageCount,
      ...(trashed ? { trashedAt: trashedAt(dir, meta.id) } : {}),
    }));
    const key = (s: StoredSession) => s.trashedAt ?? s.updatedAt;
    return out.sort((a, b) => key(b).localeCompare(key(a)));
  }

  private entry(dir: string, sessionId: string, trashed: boolean): StoredSession {
    const found = this.listIn(dir, trashed).find((s) => s.id === sessionId);
    if (!found) throw new AppError('CORRUPT_DATA', `Session ${sessionId} was moved but cannot be read back.`);
    return found;
  }
}

function transcriptOf(dir: string, sessionId: string): string {
  return inside(dir, `${sessionId}.jsonl`);
}

function folderOf(dir: string, sessionId: string): string {
  return inside(dir, sessionId);
}

function noteFile(dir: string, sessionId: string): string {
  return inside(dir, `${sessionId}.trash.json`);
}

/** `dir/name`, refusing any name that would step out of `dir` (a second line of defence after SAFE_ID). */
function inside(dir: string, name: string): string {
  const full = path.resolve(dir, name);
  if (path.dirname(full) !== path.resolve(dir))
    throw new AppError('INVALID_INPUT', `"${name.slice(0, 100)}" is not a session id.`);
  return full;
}

function lstatIf(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

function trashedAt(dir: string, sessionId: string): string {
  const read = readJsonFile(noteFile(dir, sessionId), TrashNote);
  return read.kind === 'ok' ? read.value.trashedAt : '';
}
