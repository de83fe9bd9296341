import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Reads a file line by line with bounded memory: Claude Code's transcripts can run to hundreds of
 * megabytes (tool results are kept whole), and the ledger reads them synchronously, so the file is
 * never loaded at once. A line longer than `maxLineBytes` is skipped without being assembled.
 */
export interface LineReadOptions {
  maxLineBytes: number;
  chunkBytes?: number;
}

export type LineEvent =
  { kind: 'line'; lineNo: number; text: string } | { kind: 'too-long'; lineNo: number; bytes: number };

const NEWLINE = 0x0a;

export function forEachLine(fd: number, o: LineReadOptions, onLine: (e: LineEvent) => void): void {
  const chunk = Buffer.alloc(o.chunkBytes ?? 1 << 20);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overflow = false;
  let lineNo = 0;
  const finish = () => {
    lineNo++;
    if (overflow) onLine({ kind: 'too-long', lineNo, bytes: pendingBytes });
    else if (pendingBytes > 0) {
      const text = Buffer.concat(pending, pendingBytes).toString('utf8');
      if (text.trim() !== '') onLine({ kind: 'line', lineNo, text });
    }
    pending = [];
    pendingBytes = 0;
    overflow = false;
  };
  const take = (part: Buffer) => {
    pendingBytes += part.length;
    if (pendingBytes > o.maxLineBytes) {
      overflow = true;
      pending = [];
    } else if (!overflow && part.length > 0) pending.push(Buffer.from(part));
  };
  for (;;) {
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1 || nl >= n) break;
      take(chunk.subarray(start, nl));
      finish();
      start = nl + 1;
    }
    take(chunk.subarray(start, n));
  }
  // An overlong last line has pendingBytes > 0 too.
  if (pendingBytes > 0) finish();
}

/**
 * Opens, checks it is a regular file, and reads it line by line; the descriptor is always closed.
 * The check is on the open descriptor, not a path stat before it (which a swap could race), and the
 * open neither follows a symbolic link nor waits: a FIFO named `*.jsonl` would otherwise block the
 * main process forever in open() until something writes to it.
 */
export function readLinesOf(file: string, o: LineReadOptions, onLine: (e: LineEvent) => void): void {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
    forEachLine(fd, o, onLine);
  } finally {
    closeSync(fd);
  }
}
