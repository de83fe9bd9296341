import type { SearchHit } from '@shared/ipc/contract/search';

/** A result's context with the query's words marked; the text is only ever text, never markup. */
export function Snippet({ snippet }: { snippet: SearchHit['snippet'] }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [rawStart, rawEnd] of snippet.highlights) {
    const start = Math.max(at, Math.min(rawStart, snippet.text.length));
    const end = Math.max(start, Math.min(rawEnd, snippet.text.length));
    if (start > at) parts.push(snippet.text.slice(at, start));
    if (end > start) parts.push(<mark key={start}>{snippet.text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < snippet.text.length) parts.push(snippet.text.slice(at));
  return <span className="palette-snippet">{parts}</span>;
}
