import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { AgentFileRef, AgentFolderId } from '@shared/ipc/contract/agent-files';
import type { ErrorCode } from '@shared/domain/errors';
import { isInside } from '../../harness/tools/paths';
import { AppError, errnoCode } from '../../platform/errors';

/** Claude Code's rule for agent names: lowercase letters, digits and hyphens, not starting with `-`. */
const NAME = /^[a-z0-9][a-z0-9-]*$/;
/** A new agent's name; longer ones make unreadable file names and Agent tool descriptions. */
export const MAX_NEW_AGENT_NAME = 64;
/** Subfolders below an agents folder the loader reads (its walk goes 8 deep). */
const MAX_SEGMENTS = 9;

/** Why an agent file operation was refused: the UI shows `message`, tests check `reason`. */
export type AgentFileRefusal =
  | 'bad-name'
  | 'bad-path'
  | 'link-outside'
  | 'link'
  | 'not-a-folder'
  | 'too-large'
  | 'unreadable'
  | 'invalid'
  | 'exists'
  | 'changed'
  | 'not-found';

/** A refused agent file operation: an AppError (so it crosses IPC as data) with a precise reason. */
export class AgentFileError extends AppError {
  readonly reason: AgentFileRefusal;
  constructor(code: ErrorCode, reason: AgentFileRefusal, message: string, cause?: unknown) {
    super(code, message, cause === undefined ? {} : { cause });
    this.name = 'AgentFileError';
    this.reason = reason;
  }
}

/** The folders agent files are managed in, and the folder each must stay inside. */
export interface AgentFileRoots {
  projectRoot: string;
  /** The person's home (`~/.claude/agents`). */
  home: string;
  /** Carapace's own folder (`$CARAPACE_HOME/agents`, where new user agents go). */
  carapaceHome: string;
}

/**
 * Where a folder is: its base (which the agents folder may not lead out of, even by a link) and the
 * path below it. Claude Code's user folder may be a link into a dotfiles repository in the home.
 */
export function folderLayout(id: AgentFolderId, r: AgentFileRoots): { base: string; below: string[] } {
  if (id === 'project') return { base: path.resolve(r.projectRoot), below: ['.claude', 'agents'] };
  if (id === 'user') return { base: path.resolve(r.carapaceHome), below: ['agents'] };
  return { base: path.resolve(r.home), below: ['.claude', 'agents'] };
}

/** The agents folder as the loader names it (links not resolved), for paths shown and matched. */
export function shownFolder(id: AgentFolderId, r: AgentFileRoots): string {
  const { base, below } = folderLayout(id, r);
  return path.join(base, ...below);
}

/**
 * A new agent's name, checked before it becomes a file name. Each hostile shape gets its own words;
 * the last rule (the parser's) would refuse them all, but "may not contain /" says what to fix.
 */
export function checkNewAgentName(name: string): void {
  const refuse = (why: string) => {
    throw new AgentFileError('INVALID_INPUT', 'bad-name', `The agent name ${why}.`);
  };
  if (name === '') refuse('is empty');
  if (name.includes('\0')) refuse('may not contain a NUL character');
  if (name.includes('/') || name.includes('\\')) refuse('may not contain / or \\');
  if (name.includes('..')) refuse('may not contain ..');
  if (name.length > MAX_NEW_AGENT_NAME) refuse(`is longer than ${MAX_NEW_AGENT_NAME} characters`);
  if (!NAME.test(name))
    refuse(`"${name}" must be lowercase letters, digits and hyphens, and not start with a hyphen`);
}

/** A ref's path as segments: no `..`, `.`, empty part, NUL or backslash; a `.md` file at the end. */
export function refSegments(ref: AgentFileRef): string[] {
  const segments = ref.path.split('/');
  const bad = (why: string) =>
    new AgentFileError(
      'INVALID_INPUT',
      'bad-path',
      `"${ref.path.slice(0, 200)}" is not an agent file: ${why}.`,
    );
  if (segments.length > MAX_SEGMENTS) throw bad(`more than ${MAX_SEGMENTS - 1} folders deep`);
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..') throw bad('it has an empty, . or .. part');
    if (s.includes('\0') || s.includes('\\')) throw bad('it contains NUL or \\');
    if (s.length > 255) throw bad('a part is longer than 255 characters');
  }
  if (!ref.path.endsWith('.md') || ref.path.endsWith('/.md')) throw bad('it does not end in .md');
  return segments;
}

function realOf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch (error) {
    throw new AgentFileError(
      'IO_ERROR',
      'not-found',
      `${p} could not be resolved: ${(error as Error).message}`,
      error,
    );
  }
}

/**
 * The agents folder's real path, each part checked in turn: a part that is a link must lead inside
 * the base (a cloned repository's `.claude/agents → ~/.ssh` is refused, and nothing is created
 * through it); with `create`, missing parts are made one at a time, never through an unchecked link.
 */
export function realAgentsFolder(id: AgentFolderId, r: AgentFileRoots, o: { create: boolean }): string {
  const { base, below } = folderLayout(id, r);
  const realBase = realOf(base);
  let current = realBase;
  let shown = base;
  for (const part of below) {
    const next = path.join(current, part);
    shown = path.join(shown, part);
    let info = lstatOrNull(next);
    if (info === null) {
      if (!o.create) throw new AgentFileError('NOT_FOUND', 'not-found', `${shown} does not exist.`);
      try {
        mkdirSync(next);
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST')
          throw new AgentFileError(
            'IO_ERROR',
            'not-found',
            `${shown} could not be made: ${(error as Error).message}`,
            error,
          );
      }
      info = lstatOrNull(next);
    }
    if (info?.isSymbolicLink()) {
      const real = realOf(next);
      if (!isInside(realBase, real))
        throw new AgentFileError(
          'FORBIDDEN',
          'link-outside',
          `${shown} is a link leading outside ${base} (to ${real}); agent files are not written through it.`,
        );
      info = lstatOrNull(real);
      current = real;
    } else current = next;
    if (!info?.isDirectory())
      throw new AgentFileError('INVALID_INPUT', 'not-a-folder', `${shown} is not a folder.`);
  }
  return current;
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw new AgentFileError(
      'IO_ERROR',
      'not-found',
      `${p} could not be read: ${(error as Error).message}`,
      error,
    );
  }
}

/**
 * A ref's file inside the real agents folder. Subfolders on the way must be real folders (the loader
 * never follows a link to a folder either). Returns the path and what is there now (null: nothing).
 */
export function refTarget(
  ref: AgentFileRef,
  r: AgentFileRoots,
  o: { create: boolean },
): { file: string; realDir: string; info: Stats | null } {
  const segments = refSegments(ref);
  const realDir = realAgentsFolder(ref.folder, r, o);
  let dir = realDir;
  for (const part of segments.slice(0, -1)) {
    dir = path.join(dir, part);
    const info = lstatOrNull(dir);
    if (info === null) throw new AgentFileError('NOT_FOUND', 'not-found', `${ref.path} does not exist.`);
    if (info.isSymbolicLink())
      throw new AgentFileError(
        'FORBIDDEN',
        'link',
        `${ref.path} is inside a link to a folder; links are not followed.`,
      );
    if (!info.isDirectory())
      throw new AgentFileError('INVALID_INPUT', 'not-a-folder', `${ref.path}: a part of it is not a folder.`);
  }
  const file = path.join(dir, segments.at(-1) ?? '');
  return { file, realDir, info: lstatOrNull(file) };
}
