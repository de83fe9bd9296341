import { parse } from 'yaml';

/**
 * A rules file's optional YAML frontmatter. Only `paths` matters here: globs naming the files the
 * rule is about, so it loads when one of them is read instead of at session start.
 */
export interface RuleFrontmatter {
  /** The body without the frontmatter block. */
  body: string;
  /** The `paths` globs; null when the rule has none (it loads at session start). */
  paths: string[] | null;
  /** Why the frontmatter could not be read, when it could not; the rule then loads unconditionally. */
  error: string | null;
}

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** `paths` as a YAML list, or one string of comma-separated globs (both are seen in the wild). */
function globsOf(value: unknown): string[] | null {
  const list =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value)
        ? value.filter((v): v is string => typeof v === 'string')
        : [];
  const globs = list.map((g) => g.trim()).filter((g) => g !== '');
  return globs.length > 0 ? globs : null;
}

export function parseRuleFrontmatter(text: string): RuleFrontmatter {
  const block = BLOCK.exec(text);
  if (!block) return { body: text, paths: null, error: null };
  const body = text.slice(block[0].length);
  let data: unknown;
  try {
    data = parse(block[1] ?? '');
  } catch (error) {
    return { body, paths: null, error: error instanceof Error ? error.message : String(error) };
  }
  if (data === null || data === undefined) return { body, paths: null, error: null };
  if (typeof data !== 'object' || Array.isArray(data))
    return { body, paths: null, error: 'the frontmatter is not a set of key: value pairs' };
  return { body, paths: globsOf((data as Record<string, unknown>)['paths']), error: null };
}
