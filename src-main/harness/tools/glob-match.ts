import path from 'node:path';
import { expandBraces } from './glob-braces';
import { compileSegment, segmentPlan } from './glob-segment';

/**
 * The one glob matcher in the main process: Glob's and Grep's fallback without ripgrep, and the
 * Read/Edit permission rules. picomatch owns the syntax inside a path segment (`*`, `?`, `[...]`,
 * `[[:alpha:]]`, `{a,b}`, `\` escapes); this module owns only what picomatch cannot be trusted with:
 *
 * - gitignore-style anchoring: a pattern without `/` matches a name at any depth (`*.ts` finds
 *   `src/a.ts`), one with `/` matches from the root; a leading `./` or `/` is dropped;
 * - `**` as whole segments, matched segment by segment (zero or more of them), so `dir/**` also covers
 *   `dir` itself;
 * - bounds. picomatch compiles to a backtracking RegExp: `**` there backtracks per character and a
 *   segment such as `*a*a*a*a*b` is polynomial in the name's length, so a hostile pattern from a
 *   cloned project's settings could stall the main process for minutes. Here `**` never reaches the
 *   RegExp, a segment's stars are matched piece by piece (glob-segment.ts), the few segments left to
 *   the RegExp (those with braces) are held to {@link GLOB_LIMITS}, and names longer than any file
 *   system allows are not matched at all;
 * - brace sets with a comma, expanded first (glob-braces.ts): each alternative is its own pattern, so
 *   `{secrets/**,.env}` and `{*.pem,*.key,*.p12}` match like the patterns they list, in linear time.
 *
 * Dotfiles are ordinary names (`*` matches `.env`, as in gitignore and ripgrep), but `*` never
 * matches `.` or `..`. Extglobs (`+(a|b)`) and leading-`!` negation are not glob syntax in gitignore or
 * ripgrep, so they are literal text here too.
 */

export const GLOB_LIMITS = {
  /** Longest pattern accepted. */
  patternChars: 1024,
  /**
   * `*` runs in a segment with `{…}`, which picomatch's RegExp matches: each more multiplies the
   * worst-case time by a name's length. (Segments without braces match in linear time, any stars.)
   */
  starsPerSegment: 2,
  /** `*` runs in all the segments with `{…}`. */
  starsPerPattern: 8,
  /** `{…}` groups in one segment: overlapping alternatives backtrack too. */
  bracesPerSegment: 4,
  /** Patterns a pattern's brace sets may expand to. */
  alternatives: 64,
  /** Longest path matched: PATH_MAX on Linux; no real path is longer. */
  pathChars: 4096,
  /** Longest name matched: NAME_MAX on common file systems. */
  nameChars: 255,
} as const;

/** A pattern that cannot be used, and why, in words. */
export class GlobPatternError extends Error {
  constructor(
    pattern: string,
    /** Why, as a clause: "it contains a NUL character". */
    readonly why: string,
  ) {
    const shown = pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern;
    super(`The glob pattern "${shown.replace(/\0/g, '\\0')}" cannot be used: ${why}.`);
    this.name = 'GlobPatternError';
  }
}

const GLOBSTAR = Symbol('**');
type Segment = typeof GLOBSTAR | ((name: string) => boolean);

/** Splits on `/` outside `{…}`; a `/` inside braces would split a group picomatch must see whole. */
function splitSegments(pattern: string): string[] | null {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === '/' && depth > 0) return null;
  }
  return pattern.split('/');
}

/** The patterns a pattern's brace sets stand for, within the limits. */
export function globAlternatives(pattern: string): string[] {
  if (pattern.length > GLOB_LIMITS.patternChars)
    throw new GlobPatternError(
      pattern,
      `it is ${pattern.length} characters long; at most ${GLOB_LIMITS.patternChars} are allowed`,
    );
  return expandBraces(
    pattern,
    GLOB_LIMITS.alternatives,
    () =>
      new GlobPatternError(
        pattern,
        `its {…} sets list more than ${GLOB_LIMITS.alternatives} patterns together`,
      ),
  );
}

function compileSegments(pattern: string): Segment[] {
  if (pattern.length > GLOB_LIMITS.patternChars)
    throw new GlobPatternError(
      pattern,
      `it is ${pattern.length} characters long; at most ${GLOB_LIMITS.patternChars} are allowed`,
    );
  if (pattern.includes('\0')) throw new GlobPatternError(pattern, 'it contains a NUL character');
  let body = pattern.replace(/^\.\//, '').replace(/^\/+/, '');
  // gitignore: a trailing slash names a folder, which covers everything inside it.
  if (body.endsWith('/')) body = `${body.replace(/\/+$/, '')}/**`;
  if (body === '') throw new GlobPatternError(pattern, 'it names no file');
  const parts = splitSegments(body);
  if (parts === null) throw new GlobPatternError(pattern, 'a `/` inside `{…}` is not supported');
  const anchored = body.includes('/');
  let total = 0;
  const segments: Segment[] = [];
  for (const part of anchored ? parts : ['**', ...parts]) {
    if (part === '') continue; // `a//b` is `a/b`
    if (part === '**') {
      if (segments.at(-1) !== GLOBSTAR) segments.push(GLOBSTAR);
      continue;
    }
    if (part === '.' || part === '..')
      throw new GlobPatternError(pattern, `it contains a "${part}" segment; patterns match normalized paths`);
    const plan = segmentPlan(part);
    if (plan.regex) {
      total += plan.stars;
      if (plan.stars > GLOB_LIMITS.starsPerSegment)
        throw new GlobPatternError(
          pattern,
          `"${part}" has ${plan.stars} wildcards; with {…} in a segment at most ${GLOB_LIMITS.starsPerSegment} are allowed`,
        );
      if (plan.braces > GLOB_LIMITS.bracesPerSegment)
        throw new GlobPatternError(
          pattern,
          `"${part}" has ${plan.braces} {…} groups; at most ${GLOB_LIMITS.bracesPerSegment} per path segment are allowed`,
        );
    }
    segments.push(compileSegment(part));
  }
  if (total > GLOB_LIMITS.starsPerPattern)
    throw new GlobPatternError(
      pattern,
      `it has ${total} wildcards in segments with {…}; at most ${GLOB_LIMITS.starsPerPattern} are allowed`,
    );
  return segments;
}

/**
 * Whether the segments match the path's names: a set of reachable positions advanced one pattern
 * segment at a time, so time is segments × names, never exponential, and each name is tested by
 * each segment at most once.
 */
function matchNames(segments: readonly Segment[], names: readonly string[]): boolean {
  let reach = new Uint8Array(names.length + 1);
  reach[0] = 1;
  for (const segment of segments) {
    const next = new Uint8Array(names.length + 1);
    let any = false;
    for (let j = 0; j <= names.length; j++) {
      if (segment === GLOBSTAR) {
        any ||= reach[j] === 1;
        if (any) next[j] = 1;
      } else if (reach[j] === 1 && j < names.length && segment(names[j] ?? '')) {
        next[j + 1] = 1;
      }
    }
    reach = next;
    if (!reach.includes(1)) return false;
  }
  return reach[names.length] === 1;
}

/** A path relative to the glob's root, as names; null for one no file could have. */
function pathNames(relPath: string): string[] | null {
  if (relPath.length > GLOB_LIMITS.pathChars || relPath.includes('\0')) return null;
  // `a/../b` is `b`; a path that climbs out of the root is not under it.
  const normal = path.posix.normalize(relPath.replace(/^\/+/, ''));
  if (normal === '..' || normal.startsWith('../')) return null;
  const names = normal.split('/').filter((n) => n !== '' && n !== '.');
  if (names.some((n) => n.length > GLOB_LIMITS.nameChars)) return null;
  return names;
}

export type GlobMatcher = (relPath: string) => boolean;

/**
 * A matcher for paths relative to the pattern's root, `/`-separated. Throws {@link GlobPatternError}
 * for a pattern it will not use; a path no file could have (NUL, too long, outside the root) never
 * matches.
 */
export function compileGlob(pattern: string): GlobMatcher {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  const alternatives = globAlternatives(pattern).map((p) => compileSegments(p));
  const matcher: GlobMatcher = (relPath) => {
    const names = pathNames(relPath);
    return names !== null && alternatives.some((segments) => matchNames(segments, names));
  };
  // Permission rules are matched on every tool call: compile each pattern once, within a bound.
  if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value ?? '');
  compiled.set(pattern, matcher);
  return matcher;
}

const COMPILED_MAX = 512;
const compiled = new Map<string, GlobMatcher>();

/** Why a pattern cannot be used (a clause, "it contains …"), or null if it can. */
export function globPatternProblem(pattern: string): string | null {
  try {
    compileGlob(pattern);
    return null;
  } catch (error) {
    if (error instanceof GlobPatternError) return error.why;
    throw error;
  }
}

/** A literal path as a pattern that matches only itself: glob characters escaped (`a*.txt` → `a\\*.txt`). */
export function escapeGlob(literal: string): string {
  return literal.replace(/[\\*?[\]{}()!]/g, '\\$&');
}

/**
 * A matcher for one name (no `/`), such as a tool name in a rule (`mcp__github__get_*`): the same
 * syntax, brace sets expanded and each alternative matched in linear time like a path segment (a
 * RegExp took 79 s for `*a*a*a*a*a*a*a*a*b` against a 64-character MCP tool name). Throws
 * {@link GlobPatternError} for a pattern it will not use.
 */
export function compileNameGlob(pattern: string): (name: string) => boolean {
  let matcher = compiledNames.get(pattern);
  if (!matcher) {
    const alternatives = globAlternatives(pattern).map((p) => {
      const plan = segmentPlan(p);
      if (
        plan.regex &&
        (plan.stars > GLOB_LIMITS.starsPerSegment || plan.braces > GLOB_LIMITS.bracesPerSegment)
      )
        throw new GlobPatternError(pattern, `"${p}" has too many wildcards or {…} groups to match safely`);
      return compileSegment(p);
    });
    matcher = (name) => name.length <= GLOB_LIMITS.nameChars && alternatives.some((m) => m(name));
    if (compiledNames.size >= COMPILED_MAX) compiledNames.delete(compiledNames.keys().next().value ?? '');
    compiledNames.set(pattern, matcher);
  }
  return matcher;
}

const compiledNames = new Map<string, (name: string) => boolean>();
