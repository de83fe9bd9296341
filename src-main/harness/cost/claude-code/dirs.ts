import { lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describeError } from '../../../platform/errors';

/**
 * Where Claude Code keeps its transcripts, found the way ccusage finds them: each folder listed in
 * `$CLAUDE_CONFIG_DIR` (comma-separated), or else `$XDG_CONFIG_HOME/claude` (`~/.config/claude`)
 * and `~/.claude`; of each, its `projects/` folder when it exists. Returns the `projects/` folders,
 * each once. An unset or empty variable falls back to the defaults; a set one that names no usable
 * folder yields none (ccusage stops with an error there; we show no Claude Code usage).
 */
export function claudeCodeDirs(env: Record<string, string | undefined>, home: string): string[] {
  const listed = (env.CLAUDE_CONFIG_DIR ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const xdg = env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config');
  const roots = listed.length > 0 ? listed : [path.join(xdg, 'claude'), path.join(home, '.claude')];
  const out: string[] = [];
  for (const root of roots) {
    const projects = path.join(path.resolve(root), 'projects');
    if (isDirectory(projects) && !out.includes(projects)) out.push(projects);
  }
  return out;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Deeper than any real layout (`<slug>/<session>/subagents/agent-….jsonl` is three). */
const MAX_DEPTH = 8;

/**
 * Every `.jsonl` file under a `projects/` folder, at any depth (ccusage's `**\/*.jsonl`), sub-agents'
 * transcripts included. Symbolic links are not followed (a link could lead anywhere, or in a circle);
 * they are reported. Unreadable folders are reported and skipped.
 */
export function listClaudeCodeFiles(projectsDir: string): { files: string[]; problems: string[] } {
  const files: string[] = [];
  const problems: string[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      problems.push(`${dir}: could not be listed (${describeError(error)}).`);
      return;
    }
    for (const name of names) {
      const p = path.join(dir, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue; // removed while listing
      }
      if (st.isSymbolicLink()) {
        if (name.endsWith('.jsonl') || depth === 0)
          problems.push(`${p}: skipped, a symbolic link (links are not followed).`);
      } else if (st.isDirectory()) {
        if (depth < MAX_DEPTH) walk(p, depth + 1);
      } else if (st.isFile() && name.endsWith('.jsonl')) files.push(p);
    }
  };
  walk(projectsDir, 0);
  return { files: files.sort(), problems };
}
