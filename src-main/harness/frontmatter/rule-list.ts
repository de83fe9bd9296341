/** How one frontmatter list (`allowed-tools`, `tools`, …) is read and what its faults say. */
export interface RuleListOptions {
  /** Skills also take `Read Grep`; commands and agents split on commas only. */
  splitOnWhitespace?: boolean;
  /** The fault when the value is neither text nor a YAML list. */
  notAList: string;
  /** The fault when a list entry is not text; `found` is the entry as JSON. */
  notText: (found: string) => string;
  /** A longer entry is a fault that ends the list. */
  maxEntryLength?: { limit: number; message: string };
  /** More entries (after dropping repeats) is a fault. */
  maxEntries?: { limit: number; message: string };
  /** A further check of each new entry: a message drops the entry and is reported, the list goes on. */
  check?: (entry: string) => string | null;
}

/** Splits at separators outside parentheses, so `Bash(git log --oneline *)` is never cut in two. */
function splitOutsideParens(value: string, splitOnWhitespace: boolean): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || (splitOnWhitespace && /\s/.test(ch)))) {
      items.push(current);
      current = '';
    } else current += ch;
  }
  items.push(current);
  return items;
}

/**
 * A list of tools or permission rules as Claude Code accepts it in frontmatter: `Read, Bash(git
 * add:*)` or a YAML list. Entries are trimmed, empty ones and repeats dropped. Null when the key is
 * absent; faults go to `errors` (the list returned then is not to be used).
 */
export function ruleList(value: unknown, o: RuleListOptions, errors: string[]): string[] | null {
  if (value === undefined || value === null) return null;
  let items: unknown[];
  if (typeof value === 'string') items = splitOutsideParens(value, o.splitOnWhitespace === true);
  else if (Array.isArray(value)) items = value;
  else {
    errors.push(o.notAList);
    return [];
  }
  const entries: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      errors.push(o.notText(JSON.stringify(item)));
      return [];
    }
    const entry = item.trim();
    if (o.maxEntryLength !== undefined && entry.length > o.maxEntryLength.limit) {
      errors.push(o.maxEntryLength.message);
      return [];
    }
    if (entry === '' || entries.includes(entry)) continue;
    const fault = o.check?.(entry) ?? null;
    if (fault === null) entries.push(entry);
    else errors.push(fault);
  }
  if (o.maxEntries !== undefined && entries.length > o.maxEntries.limit) {
    errors.push(o.maxEntries.message);
    return [];
  }
  return entries;
}
