import { parse } from 'yaml';

/** An alias may refer to the earlier ones (YAML anchors); a bomb of them must not hang the loader. */
const MAX_ALIASES = 50;

export type FrontmatterKeys = { ok: true; keys: Record<string, unknown> } | { ok: false; reason: string };

/**
 * The frontmatter's YAML as its keys. `example` names a few keys for the fault message
 * (`name, description`); with `allowEmpty`, YAML that holds nothing (only comments, say) is no keys
 * rather than a fault. `reason` is the fault without `Not loaded:`, for the caller's own wording.
 */
export function parseYamlFrontmatter(
  yaml: string,
  o: { example: string; allowEmpty: boolean },
): FrontmatterKeys {
  let data: unknown;
  try {
    data = parse(yaml, {
      maxAliasCount: MAX_ALIASES,
      uniqueKeys: true,
      prettyErrors: false,
      // Warnings (an unknown tag) are not worth a console line: the value is still read as text.
      logLevel: 'error',
    });
  } catch (error) {
    // A YAMLParseError, or the ReferenceError of an alias bomb: either way the message says what.
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `its frontmatter is not valid YAML (${why.split('\n')[0] ?? why})` };
  }
  if (data === null && o.allowEmpty) return { ok: true, keys: {} };
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, reason: `its frontmatter must be YAML keys (${o.example}, …)` };
  return { ok: true, keys: data as Record<string, unknown> };
}

/** A key's value only when the frontmatter itself has it (`__proto__`, `constructor` are not keys). */
export function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
