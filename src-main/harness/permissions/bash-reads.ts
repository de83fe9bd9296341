import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { realpathNearest } from '../../platform/real-path';
import type { CommandAnalysis } from '../bash/analyze';
import { readPaths } from '../bash/read-paths';
import { isInside } from '../tools/paths';
import { pathRuleMatches, readRuleFor } from './path-rules';
import { toolMatches, type PermissionRule } from './rule';

/**
 * The Read tool's path rules, applied to what a read-only Bash command reads (`cat ~/.ssh/id_rsa`):
 * a Read deny rule naming one of its paths denies it, wherever it runs. Where it runs outside the
 * OS sandbox (nothing else stops it reading), a path outside the project, or one that cannot be known
 * before it runs (a glob, `~user`), makes it ask as Read would — unless a Read allow rule covers
 * the path — and a Read ask rule asks. Inside the sandbox, reading outside the project is left to
 * the sandbox, which cannot read secrets or what a Read deny rule names. The files input redirects
 * open (`cat < ~/.ssh/id_rsa`) count as read, and a command that recurses following symlinks
 * (`grep -R`, `rg -L`) asks unsandboxed unless no link under what it reads leads out of the project.
 */

export interface BashReads {
  deny?: { rule: PermissionRule; reason: string };
  ask?: { rule: PermissionRule; reason: string };
  /** Why a command (by its index in the analysis) may not read without asking. */
  outside: Map<number, string>;
  /** The Read allow rules that covered paths outside the project. */
  allowedBy: PermissionRule[];
  /** `Read(//…)` rules that would allow the outside paths. */
  suggestions: string[];
}

export interface BashReadsContext {
  cwd: string;
  projectRoot: string;
  home: string;
  rules: readonly PermissionRule[];
  /** The command runs outside the OS sandbox (sandbox off, or only excluded commands). */
  unsandboxed: boolean;
}

function pathRule(rules: readonly PermissionRule[], behavior: PermissionRule['behavior']) {
  return rules.filter((r) => r.behavior === behavior && toolMatches(r.tool, 'Read'));
}

/** Most directory entries the link walk looks at before giving up (and asking). */
const LINK_WALK_BUDGET = 2000;

/**
 * True when a command that follows symlinks from `start` (`grep -R`, `rg -L`) provably stays inside
 * `realRoot`: walks the tree as it would, links followed, and fails on any link leading out, or when
 * the tree is too big to tell cheaply.
 */
export function linksStayInside(start: string, realRoot: string, budget = LINK_WALK_BUDGET): boolean {
  const seen = new Set<string>();
  const queue = [start];
  let entries = 0;
  for (let dir = queue.pop(); dir !== undefined; dir = queue.pop()) {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      continue; // gone or dangling: nothing to read there
    }
    if (!isInside(realRoot, real)) return false;
    if (seen.has(real)) continue;
    seen.add(real);
    let children;
    try {
      children = readdirSync(real, { withFileTypes: true });
    } catch {
      continue; // a file, or unreadable
    }
    for (const e of children) {
      if (++entries > budget) return false;
      if (e.isDirectory() || e.isSymbolicLink()) queue.push(path.join(real, e.name));
    }
  }
  return true;
}

export function judgeBashReads(analysis: CommandAnalysis, o: BashReadsContext): BashReads {
  const out: BashReads = { outside: new Map(), allowedBy: [], suggestions: [] };
  if (analysis.commands.length === 0) return out;
  const realRoot = realpathNearest(o.projectRoot);
  const realHome = realpathNearest(o.home);
  const denies = pathRule(o.rules, 'deny').filter((r) => r.specifier !== null);
  const asks = pathRule(o.rules, 'ask').filter((r) => r.specifier !== null);
  const allows = pathRule(o.rules, 'allow');
  // Sandboxed with no Read deny rule: nothing here could change the decision.
  if (!o.unsandboxed && denies.length === 0) return out;
  // A deny or ask fires on either spelling (as written, or where it really leads); an allow needs both.
  const either = (r: PermissionRule, p: string, real: string) =>
    pathRuleMatches(r, p, o.projectRoot, o.home) || pathRuleMatches(r, real, realRoot, realHome);
  const both = (r: PermissionRule, p: string, real: string) =>
    pathRuleMatches(r, p, o.projectRoot, o.home) && pathRuleMatches(r, real, realRoot, realHome);

  for (const read of readPaths(analysis.commands, { cwd: o.cwd, home: o.home })) {
    const problems: string[] = [];
    for (const p of read.paths) {
      const real = realpathNearest(p);
      const where = real === p ? p : `${p}, which leads to ${real}`;
      const deny = denies.find((r) => either(r, p, real));
      if (deny && !out.deny)
        out.deny = {
          rule: deny,
          reason: `denied by the rule ${deny.text} (${deny.source} settings): \`${read.name}\` would read ${where}`,
        };
      if (!o.unsandboxed) continue;
      const ask = asks.find((r) => either(r, p, real));
      if (ask && !out.ask)
        out.ask = {
          rule: ask,
          reason: `the rule ${ask.text} (${ask.source} settings) asks first: \`${read.name}\` would read ${where}`,
        };
      if (isInside(o.projectRoot, p) && isInside(realRoot, real)) continue;
      const allow = allows.find((r) => r.specifier === null || both(r, p, real));
      if (allow) {
        if (!out.allowedBy.includes(allow)) out.allowedBy.push(allow);
        continue;
      }
      problems.push(`\`${read.name}\` would read outside the project (${where})`);
      if (real === p) out.suggestions.push(readRuleFor(p));
    }
    if (o.unsandboxed && read.followsLinks !== undefined) {
      // Paths already outside the project ask above; the walk looks for links out of the ones inside.
      const from = read.paths.find(
        (p) =>
          isInside(o.projectRoot, p) &&
          isInside(realRoot, realpathNearest(p)) &&
          !linksStayInside(p, realRoot),
      );
      if (from !== undefined)
        problems.push(
          `${read.followsLinks} follows symlinks, which can lead out of the folder it reads (${from}) and out of the project`,
        );
    }
    if (o.unsandboxed)
      for (const word of read.unresolved)
        problems.push(`\`${read.name}\` reads \`${word}\`, a path that cannot be known before it runs`);
    if (problems.length > 0) out.outside.set(read.index, problems.join('; '));
  }
  out.suggestions = [...new Set(out.suggestions)].slice(0, 5);
  return out;
}
