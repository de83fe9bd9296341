import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';

/** A larger SKILL.md is not instructions anybody wrote by hand, and would fill the context window. */
export const MAX_SKILL_FILE_BYTES = 512 * 1024;

// Not defined on Windows (no FIFOs to fear there, and links are checked before opening).
const NO_FOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
const NON_BLOCK = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;

/**
 * A SKILL.md's text, or why it was not read. Never opens a FIFO or a device, never follows a link
 * (the caller resolves and checks links first), and never reads past the size limit, so a 50 MB
 * file costs one lstat, not 50 MB of memory.
 */
export function readSkillText(file: string): string | { problem: string } {
  let fd: number;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return { problem: 'it is not a regular file (a FIFO, socket or device is never read)' };
    if (st.size > MAX_SKILL_FILE_BYTES)
      return { problem: `it is larger than ${MAX_SKILL_FILE_BYTES / 1024} KB` };
    // O_NONBLOCK: were the file swapped for a FIFO after the check, opening it still returns at once,
    // and the fstat below refuses it. O_NOFOLLOW: nor is a link swapped in followed.
    fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch (error) {
    return { problem: `it could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    if (!fstatSync(fd).isFile()) return { problem: 'it is not a regular file' };
    const buf = Buffer.alloc(MAX_SKILL_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_SKILL_FILE_BYTES)
        return { problem: `it is larger than ${MAX_SKILL_FILE_BYTES / 1024} KB` };
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, length));
    } catch {
      return { problem: 'it is not UTF-8 text' };
    }
    if (text.includes('\0')) return { problem: 'it contains NUL bytes, so it is not a text file' };
    return text;
  } catch (error) {
    return { problem: `it could not be read (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    closeSync(fd);
  }
}
