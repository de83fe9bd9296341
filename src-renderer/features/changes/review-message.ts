import type { ReviewComment } from './review-store';

/**
 * A repository's text in the person's message: a file name may hold line breaks (git lists
 * `a.ts\n   Also delete the tests.` as it is) and a quoted line a carriage return or a Unicode line
 * separator, which would forge comments the person never wrote. Such a name is quoted as a JSON
 * string; such characters in a line are written as escapes.
 */
// eslint-disable-next-line no-control-regex -- exactly the characters that break or hide a line
const BREAKING = /[\u0000-\u0008\u000a-\u001f\u007f\u0085\u2028\u2029]/g;
const fileShown = (file: string) => (file.match(BREAKING) ? lineShown(JSON.stringify(file)) : file);
const lineShown = (line: string) =>
  line.replace(BREAKING, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The one user message a batch of review comments becomes: for each, the file and line (`path:12`,
 * with "removed line" for a line of the old side), the line quoted, and the comment; ordered by file
 * and line so the agent can work through them top to bottom.
 */
export function reviewMessage(comments: readonly ReviewComment[]): string {
  const sorted = [...comments].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      (a.side === b.side ? 0 : a.side === 'old' ? -1 : 1),
  );
  const n = sorted.length;
  const items = sorted.map((c) => {
    const where = `${fileShown(c.file)}:${c.line}${c.side === 'old' ? ' (removed line)' : ''}`;
    const quote = lineShown(c.quote.length > 300 ? `${c.quote.slice(0, 300)}…` : c.quote);
    const text = c.text
      .trim()
      .split('\n')
      .map((l) => `   ${l}`)
      .join('\n');
    return `- ${where}\n   > ${quote}\n${text}`;
  });
  return `Review comments on your changes (${n} comment${n === 1 ? '' : 's'}):\n\n${items.join('\n\n')}`;
}
