import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CommandAnalysis } from './analyze';
import type { SimpleCommand } from './extract';

/**
 * `sandbox.excludedCommands`: programs the person lets run outside the OS sandbox. The exclusion is
 * for the whole command line (one process tree runs it), so it applies only when every part of the
 * line is such a program, called directly: `git --version; cat ~/.ssh/id_rsa` runs sandboxed. The
 * shell (what actually runs) and the permission engine (what may run without asking) both decide
 * through {@link runsOutsideSandbox}, so they cannot disagree.
 */

/** An entry as words: `git`, `docker compose`; a rule-style tail (`git *`, `npm run:*`) is dropped. */
export function exclusionWords(entry: string): string[] {
  const words = entry.trim().split(/\s+/).filter(Boolean);
  const last = words.at(-1);
  if (last === '*') words.pop();
  else if (last?.endsWith(':*')) words[words.length - 1] = last.slice(0, -2);
  return words.filter(Boolean);
}

const GIT_ELSEWHERE = /^(-C|--git-dir(=|$)|--work-tree(=|$)|--exec-path(=|$)|--namespace(=|$))/;

/**
 * True when an entry covers this simple command: its words (after any wrapper) begin with the
 * entry's, and nothing around it changes what runs. A variable (`GIT_PAGER=…`, `PATH=.`) or a wrapper
 * (`env`, `sudo`, `timeout`) would run something the entry does not name, so it does not count.
 */
export function coveredByExclusion(c: SimpleCommand, entries: readonly string[]): boolean {
  if (c.assignments.length > 0 || c.wrappers.length > 0) return false;
  if (c.core.some((w) => w === null)) return false;
  // git pointed at another repository obeys that repository's config (its fsmonitor, its hooks),
  // which the agent may have written: only the project's own, protected one may run unsandboxed.
  if (c.core[0] === 'git' && c.core.some((w) => typeof w === 'string' && GIT_ELSEWHERE.test(w))) return false;
  return entries.some((entry) => {
    const words = exclusionWords(entry);
    return words.length > 0 && words.every((w, i) => c.core[i] === w);
  });
}

/**
 * Whether a command line runs outside the sandbox because of `excludedCommands`: only when the
 * analysis understood all of it (parsed, no injection finding: no substitution, redirect to a file,
 * subshell, wrapper …), it holds at least one command and no `[ … ]` test (which the unsandboxed
 * shell itself would evaluate), and every simple command is covered by an entry.
 */
export function runsOutsideSandbox(analysis: CommandAnalysis, entries: readonly string[]): boolean {
  if (entries.length === 0) return false;
  if (!analysis.parsed || analysis.findings.length > 0) return false;
  if (analysis.commands.length === 0 || (analysis.tests ?? 0) > 0) return false;
  return analysis.commands.every((c) => coveredByExclusion(c, entries));
}

/**
 * Whether `cwd` lies inside a repository nested in the project (a `.git` between it and the root).
 * An excluded command started there would run unsandboxed under a config the agent could have
 * written, so it runs sandboxed instead.
 */
export function insideNestedRepository(cwd: string, roots: readonly string[]): boolean {
  const root = roots.find((r) => cwd === r || cwd.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
  if (root === undefined) return true;
  for (let dir = cwd; dir !== root; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return true;
    if (path.dirname(dir) === dir) return true;
  }
  return false;
}
