import path from 'node:path';
import { globToRegExp } from '../tools/glob-pattern';
import { isInside } from '../tools/paths';
import type { PermissionRule } from './rule';

/**
 * Whether a Read/Edit rule's gitignore-style pattern covers an absolute path. Anchors, as in Claude
 * Code: `//abs` absolute, `~/x` home, `/x` the settings source's folder, `x` or `./x` the project.
 * A bare name (`.env`) matches at any depth; `src/**` in a deny or ask rule matches `src` at any depth,
 * in an allow rule only at the project root.
 */
export function pathRuleMatches(
  rule: PermissionRule,
  target: string,
  projectRoot: string,
  home: string,
): boolean {
  const spec = rule.specifier;
  if (spec === null) return true;
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
  const re = globToRegExp(anyDepth && pattern.includes('/') ? `**/${pattern}` : pattern);
  // `dir/**` also covers `dir` itself.
  return re.test(rel) || (pattern.endsWith('/**') && globToRegExp(pattern.slice(0, -3)).test(rel));
}

/**
 * A Read rule's pattern as an absolute glob the OS sandbox understands (same anchors as
 * {@link pathRuleMatches}; a bare name or a deny/ask `dir/**` covers any depth), or null for a rule
 * with no path (the whole tool).
 */
export function pathRuleGlob(rule: PermissionRule, projectRoot: string, home: string): string | null {
  const spec = rule.specifier;
  if (spec === null) return null;
  if (spec.startsWith('//')) return `/${spec.slice(2)}`;
  if (spec.startsWith('~/')) return path.join(home, spec.slice(2));
  if (spec.startsWith('/')) return path.join(rule.base, spec.slice(1));
  const pattern = spec.replace(/^\.\//, '');
  const singleDir = /^[^/*?[]+\/\*\*$/.test(pattern);
  const anyDepth =
    !pattern.includes('/') || (singleDir && rule.behavior !== 'allow' && !spec.startsWith('./'));
  return path.join(projectRoot, anyDepth ? `**/${pattern}` : pattern);
}
