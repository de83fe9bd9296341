/** `---` alone on its line (trailing spaces tolerated, as editors leave them). */
const FENCE = /^---[ \t]*$/;

/** The YAML between the fences (null when the file has none) and the Markdown after them. */
export interface FrontmatterParts {
  yaml: string | null;
  body: string;
}

/**
 * Splits a command, skill or agent file into frontmatter and body, after dropping a byte-order mark
 * and turning CRLF/CR line ends into LF. A file whose first line is no fence is all body (whether
 * that is allowed is the caller's rule); an opening fence that is never closed is a fault, returned
 * as the reason text.
 */
export function splitFrontmatter(text: string): FrontmatterParts | string {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  if (!FENCE.test(lines[0] ?? '')) return { yaml: null, body: lines.join('\n') };
  const end = lines.findIndex((l, i) => i > 0 && FENCE.test(l));
  if (end === -1) return 'its frontmatter is not closed by a --- line';
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}
