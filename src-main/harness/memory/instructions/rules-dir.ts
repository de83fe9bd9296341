import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { discoveredInBounds, outsideDiscoveredNotice, type ImportBounds } from './import-guard';
import { MAX_INSTRUCTION_BYTES } from './read-with-imports';
import { parseRuleFrontmatter } from './rule-frontmatter';

/** A rule with `paths` globs: it loads only when a file matching one of them is read. */
export interface ConditionalRule {
  file: string;
  /** The folder its globs are relative to: the one holding `.claude/` (the project for user rules). */
  baseDir: string;
  globs: string[];
  scope: 'user' | 'rules';
}

/** A rules folder is read this many folders deep below itself, and no deeper. */
export const MAX_RULE_DEPTH = 8;
/** At most this many rule files are taken from one rules folder. */
export const MAX_RULE_FILES = 200;

export interface RuleListingOptions {
  /** The user's `~/.claude/rules` is flat (`*.md`); a project's is read recursively. */
  recursive: boolean;
  /**
   * Whose folder it is. The user's own may link anywhere (shared rules linked in, secrets are still
   * refused when read); a project's may not lead out of the project (`discoveredInBounds`).
   */
  scope: 'user' | 'rules';
  bounds: ImportBounds;
  /** Where links refused and caps reached are told. */
  notices: string[];
}

/**
 * Every `*.md` under a rules folder, in a stable order (sorted by path), at most `MAX_RULE_DEPTH`
 * folders deep and `MAX_RULE_FILES` files, each cap with a notice. This runs before every turn, so a
 * committed `.claude/rules/all -> /` must neither walk the disk nor load it: in a project's folder a link
 * (the folder itself, a subfolder or a file) that leads out of the project is not followed, with a
 * notice. Each folder is read once (symlinks resolved); one that is missing or unreadable has no rules.
 */
export async function listRuleFiles(dir: string, options: RuleListingOptions): Promise<string[]> {
  const { bounds, notices } = options;
  const seen = new Set<string>();
  const out: string[] = [];
  // Fields, not locals: the walk sets them from inside its closure.
  const capped: { tooDeep: string | null; full: boolean } = { tooDeep: null, full: false };

  async function inBounds(found: string, real: string): Promise<boolean> {
    if (options.scope === 'user' || (await discoveredInBounds(bounds, found, real))) return true;
    notices.push(outsideDiscoveredNotice(bounds, found, real));
    return false;
  }

  /** `real` is `current` with symlinks resolved, already checked to be in bounds. */
  async function walk(current: string, real: string, depth: number): Promise<void> {
    if (seen.has(real)) return;
    seen.add(real);
    let entries: Dirent[];
    try {
      entries = (await readdir(real, { withFileTypes: true })).sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
    } catch {
      return;
    }
    for (const entry of entries) {
      if (capped.full) return;
      const found = path.join(current, entry.name);
      // Not a link: it is where its folder is, so in bounds too. A link is resolved and checked.
      let target = path.join(real, entry.name);
      if (entry.isSymbolicLink()) {
        try {
          target = await realpath(found);
        } catch {
          continue; // Dangling or a loop: nothing to read.
        }
        if (!(await inBounds(found, target))) continue;
      }
      let info;
      try {
        info = await stat(target);
      } catch {
        continue;
      }
      if (info.isDirectory()) {
        if (!options.recursive) continue;
        if (depth >= MAX_RULE_DEPTH) capped.tooDeep ??= found;
        else await walk(found, target, depth + 1);
      } else if (info.isFile() && entry.name.toLowerCase().endsWith('.md')) {
        if (out.length >= MAX_RULE_FILES) capped.full = true;
        else out.push(found);
      }
    }
  }

  let real: string;
  try {
    real = await realpath(dir);
  } catch {
    return [];
  }
  if (!(await inBounds(dir, real))) return [];
  await walk(dir, real, 0);
  if (capped.tooDeep !== null)
    notices.push(
      `Rules in folders more than ${MAX_RULE_DEPTH} levels below ${dir} were not read (the first was ${capped.tooDeep}).`,
    );
  if (capped.full)
    notices.push(
      `Only the first ${MAX_RULE_FILES} rule files in ${dir} were read; the rest were not, since rules are read again before every message.`,
    );
  return out;
}

/** The `paths` globs of a rule file, or null when it has none (or cannot be read: it is then not conditional). */
export async function ruleGlobs(file: string): Promise<string[] | null> {
  try {
    const info = await stat(file);
    if (info.size > MAX_INSTRUCTION_BYTES) return null;
    return parseRuleFrontmatter(await readFile(file, 'utf8')).paths;
  } catch {
    return null;
  }
}
