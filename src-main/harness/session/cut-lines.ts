import type { TranscriptLine } from './transcript-file';

/** Lines that are part of the conversation (and of what a rewind undoes), as opposed to session state. */
const CONVERSATION = new Set<TranscriptLine['type']>(['item', 'context', 'rewind', 'partial', 'file']);

/**
 * The transcript as the person left it after rewinds: a `cut` line takes out its message and every
 * conversation line written after it (items, context changes, streaming pieces, file changes), so a
 * rewound conversation reads as if it ended before that message. Session state (title, model, mode,
 * cost, usage, permissions, turns) stays: what was spent was spent. The file is append-only, so the
 * cut lines are honoured here rather than by truncating; a transcript without any reads unchanged.
 * A cut naming no item still in the conversation (a crafted or stale line) changes nothing.
 */
export function linesAfterCuts(lines: readonly TranscriptLine[]): TranscriptLine[] {
  if (!lines.some((l) => l.type === 'cut')) return [...lines];
  let kept: TranscriptLine[] = [];
  for (const line of lines) {
    if (line.type !== 'cut') {
      kept.push(line);
      continue;
    }
    const at = kept.findIndex((l) => l.type === 'item' && l.item.id === line.fromItemId);
    if (at < 0) continue;
    kept = [...kept.slice(0, at), ...kept.slice(at).filter((l) => !CONVERSATION.has(l.type))];
  }
  return kept;
}
