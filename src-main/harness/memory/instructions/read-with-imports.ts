import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../../../platform/errors';
import { refuseDiscovered, refuseImport, type ImportBounds } from './import-guard';
import { findImports, stripBlockComments } from './markdown-scan';
import { parseRuleFrontmatter } from './rule-frontmatter';
import type { InstructionScope, LoadedFile } from './types';

/** Claude Code loads an instruction file of up to 4 MiB in full and skips a larger one. */
export const MAX_INSTRUCTION_BYTES = 4 * 1024 * 1024;
/** Imports are followed this many hops from the file found by discovery; the next one is not. */
export const MAX_IMPORT_HOPS = 4;

/** State shared by every read of one load, so each file enters the context once. */
export interface ReadState {
  homeDir: string;
  /** Real paths (symlinks resolved) of files already loaded. */
  loaded: Set<string>;
  notices: string[];
  /** Where imports may lead (the project, for project files) and the secrets none may reach. */
  bounds: ImportBounds;
}

export interface ReadOptions {
  scope: InstructionScope;
  /** Rules carry YAML frontmatter (`paths`); other instruction files are taken as they are. */
  isRule?: boolean;
}

function describe(error: unknown): string {
  const code = errnoCode(error);
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'a symbolic link loop';
  return error instanceof Error ? error.message : String(error);
}

/** Where an `@path` import points: `~/` from home, absolute as is, anything else beside the importer. */
export function resolveImport(ref: string, importer: string, homeDir: string): string {
  if (ref.startsWith('~/')) return path.join(homeDir, ref.slice(2));
  if (path.isAbsolute(ref)) return path.normalize(ref);
  return path.resolve(path.dirname(importer), ref);
}

/**
 * Reads a file's bytes only when it is small enough; null with a notice otherwise. `real` is what is
 * opened: the path that was checked, not a link that could be re-pointed between the check and the read.
 */
async function readText(file: string, real: string, state: ReadState, size: number): Promise<string | null> {
  if (size > MAX_INSTRUCTION_BYTES) {
    state.notices.push(
      `Skipped ${file}: it is ${(size / 1024 / 1024).toFixed(1)} MiB, more than the 4 MiB an instruction file may be.`,
    );
    return null;
  }
  const handle = await open(real, 'r');
  try {
    const bytes = await handle.readFile();
    if (bytes.subarray(0, 8192).includes(0)) {
      state.notices.push(`Skipped ${file}: it looks like a binary file, not text.`);
      return null;
    }
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Reads one instruction file and, depth first, the files it imports: the file itself first, then each
 * import in the order written. A file already loaded is not loaded again; one that is its own
 * ancestor in the import chain (a cycle, symlinks resolved) is noted. `chain` holds the real paths
 * of the importers above this file.
 */
export async function readWithImports(
  file: string,
  options: ReadOptions,
  state: ReadState,
  importedBy: string | null = null,
  chain: readonly string[] = [],
): Promise<LoadedFile[]> {
  // An import is checked as written before anything is touched (a project file's `@~/.ssh/id_rsa`
  // does not even reach the disk), then again with symlinks resolved.
  if (importedBy !== null) {
    const refused = refuseImport(state.bounds, options.scope, importedBy, file, null);
    if (refused !== null) {
      state.notices.push(refused);
      return [];
    }
  }
  let real: string;
  try {
    real = await realpath(file);
  } catch (error) {
    if (importedBy === null && errnoCode(error) === 'ENOENT') return [];
    state.notices.push(
      errnoCode(error) === 'ENOENT'
        ? `${importedBy} imports ${file}, which does not exist.`
        : `Could not read ${file}: ${describe(error)}.`,
    );
    return [];
  }
  // A discovered file already in the context (a project's CLAUDE.md linked to the person's
  // ~/.claude/CLAUDE.md) is skipped quietly: nothing new would be read, so nothing to refuse.
  if (importedBy === null && state.loaded.has(real)) return [];
  const refused =
    importedBy !== null
      ? refuseImport(state.bounds, options.scope, importedBy, file, real)
      : await refuseDiscovered(state.bounds, options.scope, file, real);
  if (refused !== null) {
    state.notices.push(refused);
    return [];
  }
  if (chain.includes(real)) {
    state.notices.push(
      `Import cycle: ${importedBy} imports ${file}, which is already being read higher up the chain; it was not read again.`,
    );
    return [];
  }
  if (state.loaded.has(real)) return [];

  let text: string | null;
  try {
    const info = await stat(real);
    if (!info.isFile()) {
      if (importedBy !== null) state.notices.push(`${importedBy} imports ${file}, which is not a file.`);
      return [];
    }
    text = await readText(file, real, state, info.size);
  } catch (error) {
    state.notices.push(`Could not read ${file}: ${describe(error)}.`);
    return [];
  }
  if (text === null) return [];
  state.loaded.add(real);

  let body = text;
  if (options.isRule) {
    const front = parseRuleFrontmatter(text);
    if (front.error) state.notices.push(`The frontmatter of ${file} could not be read: ${front.error}`);
    body = front.body;
  }
  body = stripBlockComments(body);
  const result: LoadedFile[] = [{ scope: options.scope, path: file, importedBy, text: body.trim() }];

  const imports = findImports(body);
  if (imports.length === 0) return result;
  if (chain.length >= MAX_IMPORT_HOPS) {
    state.notices.push(
      `Imports in ${file} were not followed: it is already ${MAX_IMPORT_HOPS} imports deep, the most allowed.`,
    );
    return result;
  }
  for (const ref of imports) {
    const target = resolveImport(ref, file, state.homeDir);
    // An imported file is plain instructions: only the rule found by discovery has frontmatter.
    result.push(...(await readWithImports(target, { scope: options.scope }, state, file, [...chain, real])));
  }
  return result;
}
