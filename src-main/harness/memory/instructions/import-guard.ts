import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { secretPaths } from '../../bash/sandbox';
import type { InstructionScope } from './types';

/**
 * What an instruction file may pull into the system prompt. Everything loaded here is sent to the
 * model provider, so a file a repository ships must not be able to reach the person's other files.
 *
 * - Files the person or their administrator wrote (managed, user, auto-memory) may import any file.
 * - Files that come with the project (project, local, rules, and a subfolder's CLAUDE.md attached on
 *   Read; team memory is shared through the project too) may import only files whose real path
 *   (symlinks resolved) is inside the project. Claude Code asks the person once before following such
 *   an import; Carapace has no place to ask yet, so it does not follow it and says so.
 * - No file, whoever wrote it, reaches a secret: the same places the Bash sandbox never lets a command
 *   read (`secretPaths`), `.env*` files anywhere, and the system's password hashes. A person's own
 *   `@~/.ssh/config` is more likely a slip than a wish to send keys to the provider, and an import
 *   that was followed cannot be taken back.
 */

/** Scopes the person (or their administrator) wrote: their imports may name any file but a secret. */
const TRUSTED_SCOPES: ReadonlySet<InstructionScope> = new Set(['managed', 'user', 'auto-memory']);

/**
 * Secret files outside the sandbox's list: Claude Code's own login (an OAuth token) and the system's
 * password hashes, which a process running as root could read.
 */
function extraSecrets(home: string): string[] {
  return [
    path.join(home, '.claude', '.credentials.json'),
    '/etc/shadow',
    '/etc/gshadow',
    '/etc/master.passwd',
  ];
}

export interface ImportBounds {
  /** The project folder as the loader was given it (named in notices). */
  projectDir: string;
  /** The project folder as given and with symlinks resolved: imports must stay inside one of them. */
  projectRoots: string[];
  /** Files and folders no import may reach, as given and with symlinks resolved. */
  secretRoots: string[];
}

/** Whether `file` is `dir` or inside it (both absolute). A name like `..notes` is inside. */
export function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** A path and, when it differs, the same path with symlinks resolved (as given when it does not exist). */
async function spellings(p: string): Promise<string[]> {
  try {
    const real = await realpath(p);
    return real === p ? [p] : [p, real];
  } catch {
    return [p];
  }
}

/** The bounds for one load. Never throws: a path that cannot be resolved is kept as given. */
export async function importBounds(homeDir: string, projectDir: string): Promise<ImportBounds> {
  const homes = await spellings(path.resolve(homeDir));
  // Only the fixed entries of secretPaths: its `**/.env*` glob (added with a project root) is the
  // `.env*` name rule in secretReason, applied in every folder since an import can name any folder.
  const fixed = homes
    .flatMap((home) => [...secretPaths(home), ...extraSecrets(home)])
    .filter((p) => !p.includes('*'));
  const secretRoots = [...new Set((await Promise.all(fixed.map(spellings))).flat())];
  return {
    projectDir,
    projectRoots: await spellings(path.resolve(projectDir)),
    secretRoots,
  };
}

/** Why a path is a secret (the secret place it is in), or null. */
function secretReason(bounds: ImportBounds, file: string): string | null {
  if (path.basename(file).toLowerCase().startsWith('.env')) return 'an .env file';
  const root = bounds.secretRoots.find((s) => isInside(file, s));
  return root ? root : null;
}

function insideProject(bounds: ImportBounds, file: string): boolean {
  return bounds.projectRoots.some((root) => isInside(file, root));
}

const SECRET_WHY = 'instruction files never import secrets, since their text is sent to the model provider.';
const OUTSIDE_WHY = 'imports in the project’s instruction files may only name files inside the project';

/**
 * Why `importer`'s import of `target` is not followed, as a notice, or null when it may be read.
 * Called before the target is touched (`real` null: the path as written) and again once its real path
 * is known, so a link inside the project that points out of it is caught too.
 */
export function refuseImport(
  bounds: ImportBounds,
  scope: InstructionScope,
  importer: string,
  target: string,
  real: string | null,
): string | null {
  const via = real !== null && real !== target ? ` (a link to ${real})` : '';
  for (const p of real === null ? [target] : [target, real]) {
    const secret = secretReason(bounds, p);
    if (secret !== null)
      return `${importer} imports ${target}${via}, which is a secret (${secret}); it was not read: ${SECRET_WHY}`;
  }
  if (TRUSTED_SCOPES.has(scope)) return null;
  const outside = real === null ? !insideProject(bounds, target) : !insideProject(bounds, real);
  if (outside)
    return `${importer} imports ${target}${via}, which is outside the project; it was not read: ${OUTSIDE_WHY} (${bounds.projectDir}).`;
  return null;
}

const DISCOVERED_WHY =
  'files the project ships may only lead to files inside it, since their text is sent to the model provider';

/** The folder above the project (as given) that holds `found`, the deepest one; null when `found` is in the project. */
function ancestorHolding(bounds: ImportBounds, found: string): string | null {
  if (insideProject(bounds, found)) return null;
  for (
    let dir = path.dirname(bounds.projectRoots[0] ?? path.resolve(bounds.projectDir));
    ;
    dir = path.dirname(dir)
  ) {
    if (isInside(found, dir)) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * Whether a file or folder found by discovery (not imported) for a project scope stays in bounds: its
 * real path is inside the project, or it belongs to a folder above the project (an ancestor's
 * CLAUDE.md or `.claude/rules`, which is not inside the project by nature) and no link between that
 * folder and it leads anywhere else. A repository can commit a symlink, so `CLAUDE.md -> ~/notes.md`
 * or `.claude/rules/all -> ../../..` must not pull the person's other files into the prompt.
 */
export async function discoveredInBounds(
  bounds: ImportBounds,
  found: string,
  real: string,
): Promise<boolean> {
  if (insideProject(bounds, real)) return true;
  const anchor = ancestorHolding(bounds, found);
  if (anchor === null) return false;
  let anchorReal = anchor;
  try {
    anchorReal = await realpath(anchor);
  } catch {
    // Kept as given: the comparison below then fails closed unless nothing is linked.
  }
  return real === path.join(anchorReal, path.relative(anchor, found));
}

/** The notice for a discovered file or folder of a project scope that leads out of the project. */
export function outsideDiscoveredNotice(bounds: ImportBounds, found: string, real: string): string {
  return `Skipped ${found}: it leads to ${real}, which is outside the project; ${DISCOVERED_WHY} (${bounds.projectDir}).`;
}

/**
 * Why a file found by discovery (not imported) is not read, or null. Such a file may be a link. In the
 * person's own scopes (managed, user) a link may lead anywhere but to a secret: a shared rules file
 * linked into `~/.claude/rules` is a documented Claude Code setup. In the project's scopes it must stay
 * in bounds (`discoveredInBounds`), exactly as an import must.
 */
export async function refuseDiscovered(
  bounds: ImportBounds,
  scope: InstructionScope,
  file: string,
  real: string,
): Promise<string | null> {
  const secret = secretReason(bounds, real) ?? secretReason(bounds, file);
  if (secret !== null) return `Skipped ${file}: it leads to ${real}, a secret (${secret}); ${SECRET_WHY}`;
  if (TRUSTED_SCOPES.has(scope) || (await discoveredInBounds(bounds, file, real))) return null;
  return outsideDiscoveredNotice(bounds, file, real);
}
