import path from 'node:path';
import {
  compileGlob,
  escapeGlob,
  globAlternatives,
  GlobPatternError,
  globPatternProblem,
} from '../tools/glob-match';
import { isInside } from '../tools/paths';

/**
 * The parts of a permission rule a path pattern needs (a PermissionRule is one). Declared here so this
 * file does not import rule.ts, which imports it to check path patterns when rules load.
 */
export interface PathRule {
  /** The part in parentheses; null for the whole tool. */
  specifier: string | null;
  behavior: 'allow' | 'deny' | 'ask';
  /** The folder a `/x` pattern is anchored to (the settings source's). */
  base: string;
}

/**
 * Whether a Read/Edit rule's gitignore-style pattern covers an absolute path. Anchors, as in Claude
 * Code: `//abs` absolute, `~/x` home, `/x` the settings source's folder, `x` or `./x` the project.
 * A bare name (`.env`) matches at any depth; `src/**` in a deny or ask rule matches `src` at any depth,
 * in an allow rule only at the project root. `dir/**` also covers `dir` itself.
 */
export function pathRuleMatches(rule: PathRule, target: string, projectRoot: string, home: string): boolean {
  const spec = rule.specifier;
  if (spec === null) return true;
  let specs: string[];
  try {
    specs = specAlternatives(spec);
  } catch (error) {
    // Fails closed, as below: a deny or ask covers everything, an allow nothing.
    if (error instanceof GlobPatternError) return rule.behavior !== 'allow';
    throw error;
  }
  return specs.some((one) => specMatches(rule, one, target, projectRoot, home));
}

/**
 * The specifier's brace sets expanded, each alternative a specifier with its own anchor:
 * `{//etc/ssl/**,.env}` is `//etc/ssl/**` and `.env`. Throws {@link GlobPatternError} past the limit.
 */
function specAlternatives(spec: string): string[] {
  return spec.includes('{') ? globAlternatives(spec) : [spec];
}

function specMatches(
  rule: PathRule,
  spec: string,
  target: string,
  projectRoot: string,
  home: string,
): boolean {
  let root: string;
  let pattern: string;
  if (spec.startsWith('//')) {
    root = '/';
    pattern = spec.slice(2);
  } else if (spec.startsWith('~/')) {
    root = home;
    pattern = spec.slice(2);
  } else if (spec.startsWith('/')) {
    root = rule.base;
    pattern = spec.slice(1);
  } else {
    root = projectRoot;
    pattern = spec.replace(/^\.\//, '');
  }
  if (!isInside(root, target)) return false;
  const rel = path.relative(root, target).split(path.sep).join('/');
  const singleDir = /^[^/*?[]+\/\*\*$/.test(pattern);
  const anyDepth =
    !pattern.includes('/') ||
    (singleDir && rule.behavior !== 'allow' && !spec.startsWith('/') && !spec.startsWith('./'));
  try {
    return compileGlob(anyDepth && pattern.includes('/') ? `**/${pattern}` : pattern)(rel);
  } catch (error) {
    // Path rules are checked when settings load (parseRule); one that still cannot be used here fails
    // closed: a deny or ask covers everything its tool touches, an allow covers nothing.
    if (error instanceof GlobPatternError) return rule.behavior !== 'allow';
    throw error;
  }
}

/**
 * A Read rule's pattern as absolute globs the OS sandbox understands, one per alternative of its
 * brace sets (same anchors as {@link pathRuleMatches}; a bare name or a deny/ask `dir/**` covers any
 * depth); none for a rule with no path (the whole tool).
 */
export function pathRuleGlobs(rule: PathRule, projectRoot: string, home: string): string[] {
  const spec = rule.specifier;
  if (spec === null) return [];
  if (pathRuleProblem(spec) !== null) {
    // A deny rule whose pattern cannot be used still denies: everything under the folder the
    // pattern could name at most (its anchor plus the literal folders before any wildcard), as the
    // tool check covers everything (pathRuleMatches). Never less than that folder, so never open.
    return rule.behavior === 'allow' ? [] : [literalFolder(spec, rule, projectRoot, home)];
  }
  return specAlternatives(spec).map((one) => specGlob(rule, one, projectRoot, home));
}

/** The folder a specifier's anchor names, with the literal folder names after it up to the first glob. */
function literalFolder(spec: string, rule: PathRule, projectRoot: string, home: string): string {
  let root: string;
  let rest: string;
  if (spec.startsWith('//')) [root, rest] = ['/', spec.slice(2)];
  else if (spec.startsWith('~/')) [root, rest] = [home, spec.slice(2)];
  else if (spec.startsWith('/')) [root, rest] = [rule.base, spec.slice(1)];
  // Unanchored: a bare name matches at any depth, so the whole project.
  else return projectRoot;
  const names = rest.split('/');
  const literal: string[] = [];
  // The last name could be a file, and a name with a glob character, `.` or `..` ends the prefix.
  for (const name of names.slice(0, -1)) {
    if (name === '' || name === '.' || name === '..' || /[*?[\]{}\\!()]/.test(name)) break;
    literal.push(name);
  }
  return path.join(root, ...literal);
}

function specGlob(rule: PathRule, spec: string, projectRoot: string, home: string): string {
  if (spec.startsWith('//')) return `/${spec.slice(2)}`;
  if (spec.startsWith('~/')) return path.join(home, spec.slice(2));
  if (spec.startsWith('/')) return path.join(rule.base, spec.slice(1));
  const pattern = spec.replace(/^\.\//, '');
  const singleDir = /^[^/*?[]+\/\*\*$/.test(pattern);
  const anyDepth =
    !pattern.includes('/') || (singleDir && rule.behavior !== 'allow' && !spec.startsWith('./'));
  return path.join(projectRoot, anyDepth ? `**/${pattern}` : pattern);
}

/** Tools whose rule specifier is a gitignore-style path pattern. */
export const PATH_RULE_TOOLS: ReadonlySet<string> = new Set([
  'Read',
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
]);

/** Why a path rule's specifier cannot be matched (a clause), or null if it can: checked as rules load. */
export function pathRuleProblem(spec: string): string | null {
  let specs: string[];
  try {
    specs = specAlternatives(spec);
  } catch (error) {
    if (error instanceof GlobPatternError) return error.why;
    throw error;
  }
  for (const one of specs) {
    const pattern = one.startsWith('//') || one.startsWith('~/') ? one.slice(2) : one;
    const problem = globPatternProblem(pattern);
    if (problem !== null) return problem;
  }
  return null;
}

/** The rule allowing reads of one absolute path and nothing else: `Read(//abs)`, glob characters escaped. */
export function readRuleFor(absPath: string): string {
  return `Read(//${escapeGlob(absPath.split(path.sep).join('/').replace(/^\/+/, ''))})`;
}

/** The rule allowing edits anywhere under a project folder: `Edit(./dir/**)`, or `Edit(./**)` at the root. */
export function editRuleFor(projectRoot: string, dir: string): string {
  const rel = path.relative(projectRoot, dir).split(path.sep).join('/');
  return rel === '' ? 'Edit(./**)' : `Edit(./${escapeGlob(rel)}/**)`;
}
