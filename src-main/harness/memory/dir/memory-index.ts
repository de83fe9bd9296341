import path from 'node:path';
import { MEMORY_INDEX_FILE } from './paths';

/** MEMORY.md is an index loaded whole into every session, so it is held to a size. */
export const MEMORY_INDEX_MAX_LINES = 200;
export const MEMORY_INDEX_MAX_BYTES = 25_000;

export type MemoryIndex =
  | { text: string; truncated: false }
  | {
      /** The kept lines followed by the warning, as the model sees it. */
      text: string;
      truncated: true;
      warning: string;
      /** Lines and bytes of the whole file, before the cut. */
      lines: number;
      bytes: number;
    };

/** Lines as a person counts them: a final newline does not start another line. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * MEMORY.md as it goes into the prompt: at most 200 lines, then at most 25,000 bytes, cut at a line
 * boundary (lines first, then bytes at the last newline that fits) so no entry is half-shown. A cut
 * index ends with a warning the model can see, so it knows entries are missing and the index needs
 * rewriting.
 */
export function readMemoryIndex(text: string): MemoryIndex {
  const lines = countLines(text);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (lines <= MEMORY_INDEX_MAX_LINES && bytes <= MEMORY_INDEX_MAX_BYTES) return { text, truncated: false };
  let kept = text;
  if (lines > MEMORY_INDEX_MAX_LINES)
    kept = text.split('\n').slice(0, MEMORY_INDEX_MAX_LINES).join('\n') + '\n';
  if (Buffer.byteLength(kept, 'utf8') > MEMORY_INDEX_MAX_BYTES) {
    const head = Buffer.from(kept, 'utf8').subarray(0, MEMORY_INDEX_MAX_BYTES).toString('utf8');
    const lastNewline = head.lastIndexOf('\n');
    // U+FFFD: a multi-byte character split by the byte cut; dropped with the rest of its line.
    kept = lastNewline >= 0 ? head.slice(0, lastNewline + 1) : '';
  }
  const warning = truncationWarning(lines, bytes, countLines(kept));
  return { text: `${kept}\n${warning}\n`, truncated: true, warning, lines, bytes };
}

function truncationWarning(lines: number, bytes: number, keptLines: number): string {
  return (
    `> WARNING: MEMORY.md is ${lines} lines and ${bytes.toLocaleString('en-US')} bytes, over the limit of ` +
    `${MEMORY_INDEX_MAX_LINES} lines and ${MEMORY_INDEX_MAX_BYTES.toLocaleString('en-US')} bytes; only the first ` +
    `${keptLines} lines were loaded. Rewrite MEMORY.md shorter: one short line per memory.`
  );
}

/**
 * What the Write and Edit tools add to their result after writing MEMORY.md: null while the index is
 * within its limits, else a note telling the model to rewrite it shorter (the next session would
 * see it cut).
 */
export function memoryIndexLimitNotice(text: string): string | null {
  const lines = countLines(text);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (lines <= MEMORY_INDEX_MAX_LINES && bytes <= MEMORY_INDEX_MAX_BYTES) return null;
  return (
    `MEMORY.md is now ${lines} lines and ${bytes.toLocaleString('en-US')} bytes, over the limit of ` +
    `${MEMORY_INDEX_MAX_LINES} lines and ${MEMORY_INDEX_MAX_BYTES.toLocaleString('en-US')} bytes: only the start ` +
    `will load in the next session. Rewrite MEMORY.md shorter now: one line per memory file, a few words ` +
    `each, and move details into the memory files themselves.`
  );
}

/**
 * The note for a Write or Edit result: for a file named MEMORY.md left over a limit, the request to
 * rewrite it. Matched by name, since the tools do not know the memory directory; a project's own
 * MEMORY.md over 200 lines gets the same advice, which does no harm.
 */
export function memoryIndexWriteNote(file: string, content: string): string | null {
  return path.basename(file) === MEMORY_INDEX_FILE ? memoryIndexLimitNotice(content) : null;
}
