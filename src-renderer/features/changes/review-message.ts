import type { ReviewComment } from './review-store';

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
    const where = `${c.file}:${c.line}${c.side === 'old' ? ' (removed line)' : ''}`;
    const quote = c.quote.length > 300 ? `${c.quote.slice(0, 300)}…` : c.quote;
    const text = c.text
      .trim()
      .split('\n')
      .map((l) => `   ${l}`)
      .join('\n');
    return `- ${where}\n   > ${quote}\n${text}`;
  });
  return `Review comments on your changes (${n} comment${n === 1 ? '' : 's'}):\n\n${items.join('\n\n')}`;
}
