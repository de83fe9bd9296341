import path from 'node:path';
import picomatch from 'picomatch';
import { importBounds } from './import-guard';
import { readWithImports, type ReadState } from './read-with-imports';
import { listRuleFiles, ruleGlobs, type ConditionalRule } from './rules-dir';
import type { InstructionRoots, InstructionScope, LoadedFile, LoadedInstructions } from './types';

export type { InstructionRoots, InstructionScope, LoadedFile, LoadedInstructions } from './types';
export type { ConditionalRule } from './rules-dir';

/** Claude Code's managed file on Linux, and Carapace's own managed folder (its root injectable). */
export const DEFAULT_MANAGED_DIRS: readonly string[] = ['/etc/claude-code', '/etc/carapace'];

export interface DiscoveredInstructions extends LoadedInstructions {
  /** Rules held back until a matching file is read. */
  conditionalRules: ConditionalRule[];
  /** Real paths (symlinks resolved) of the files loaded, so later loads do not repeat them. */
  loadedRealPaths: ReadonlySet<string>;
}

/** The folders from the filesystem root down to `dir`, root first. */
export function ancestorsRootFirst(dir: string): string[] {
  const out: string[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    out.unshift(current);
    if (path.dirname(current) === current) return out;
  }
}

/**
 * Loads the rules folder's unconditional rules (with their imports) and returns its conditional ones.
 * `baseDir` is what the rules' globs are relative to.
 */
export async function loadRulesDir(
  dir: string,
  options: { scope: 'user' | 'rules'; baseDir: string; recursive: boolean },
  state: ReadState,
): Promise<{ files: LoadedFile[]; conditional: ConditionalRule[] }> {
  const files: LoadedFile[] = [];
  const conditional: ConditionalRule[] = [];
  const listing = { ...options, bounds: state.bounds, notices: state.notices };
  for (const file of await listRuleFiles(dir, listing)) {
    const globs = await ruleGlobs(file);
    if (globs) conditional.push({ file, baseDir: options.baseDir, globs, scope: options.scope });
    else files.push(...(await readWithImports(file, { scope: options.scope, isRule: true }, state)));
  }
  return { files, conditional };
}

/** Everything one folder of the project contributes, in Claude Code's order within a folder. */
export async function loadProjectFolder(
  dir: string,
  state: ReadState,
): Promise<{ files: LoadedFile[]; conditional: ConditionalRule[] }> {
  const read = (file: string, scope: InstructionScope) => readWithImports(file, { scope }, state);
  // The home folder's `.claude` is the user's scope, read as such before the ancestors: met again as
  // the ancestor of a project under home it would list the user's rules a second time, as project rules.
  const userClaude = path.resolve(dir) === path.resolve(state.homeDir);
  const files = [...(await read(path.join(dir, 'CLAUDE.md'), 'project'))];
  if (!userClaude) files.push(...(await read(path.join(dir, '.claude', 'CLAUDE.md'), 'project')));
  const rules = userClaude
    ? { files: [], conditional: [] }
    : await loadRulesDir(
        path.join(dir, '.claude', 'rules'),
        { scope: 'rules', baseDir: dir, recursive: true },
        state,
      );
  files.push(...rules.files, ...(await read(path.join(dir, 'CLAUDE.local.md'), 'local')));
  return { files, conditional: rules.conditional };
}

/**
 * Discovers and reads every instruction file as Claude Code does, broadest first (a later file takes
 * precedence): managed, user (`~/.claude/CLAUDE.md`, `~/.claude/rules/*.md`, `$CARAPACE_HOME/CLAUDE.md`),
 * then for each folder from the filesystem root down to the project: `CLAUDE.md`, `.claude/CLAUDE.md`,
 * `.claude/rules/**\/*.md`, `CLAUDE.local.md`. Each file is followed by what it imports. Never throws:
 * whatever could not be read is a notice.
 */
export async function discoverInstructions(roots: InstructionRoots): Promise<DiscoveredInstructions> {
  const state: ReadState = {
    homeDir: roots.homeDir,
    loaded: new Set(),
    notices: [],
    bounds: await importBounds(roots.homeDir, roots.projectDir),
  };
  const files: LoadedFile[] = [];
  const conditionalRules: ConditionalRule[] = [];
  try {
    for (const dir of roots.managedDirs ?? DEFAULT_MANAGED_DIRS)
      files.push(...(await readWithImports(path.join(dir, 'CLAUDE.md'), { scope: 'managed' }, state)));

    const claudeHome = path.join(roots.homeDir, '.claude');
    files.push(...(await readWithImports(path.join(claudeHome, 'CLAUDE.md'), { scope: 'user' }, state)));
    const userRules = await loadRulesDir(
      path.join(claudeHome, 'rules'),
      { scope: 'user', baseDir: roots.projectDir, recursive: false },
      state,
    );
    files.push(...userRules.files);
    conditionalRules.push(...userRules.conditional);
    files.push(
      ...(await readWithImports(path.join(roots.carapaceHome, 'CLAUDE.md'), { scope: 'user' }, state)),
    );

    for (const dir of ancestorsRootFirst(roots.projectDir)) {
      const folder = await loadProjectFolder(dir, state);
      files.push(...folder.files);
      conditionalRules.push(...folder.conditional);
    }
  } catch (error) {
    // Every file read handles its own errors; this is the last guard so a turn never fails here.
    state.notices.push(
      `Instruction files could not all be loaded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { files, notices: state.notices, conditionalRules, loadedRealPaths: state.loaded };
}

/** The agreed entry point: every instruction file in precedence order, with notices. */
export async function loadInstructions(roots: InstructionRoots): Promise<LoadedInstructions> {
  const { files, notices } = await discoverInstructions(roots);
  return { files, notices };
}

/** Whether a conditional rule applies to a file (an absolute path). */
export function ruleMatches(rule: ConditionalRule, file: string): boolean {
  const rel = path.relative(rule.baseDir, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const posix = rel.split(path.sep).join('/');
  return picomatch.isMatch(posix, rule.globs, { dot: true });
}
