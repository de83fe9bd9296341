import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  type Dirent,
} from 'node:fs';
import { isInside } from '../tools/paths';

/** A larger file is not a prompt anybody wrote by hand; it is reported and skipped. */
export const MAX_COMMAND_FILE_BYTES = 256 * 1024;

// Not defined on Windows (no FIFOs to fear there, and links are checked before opening).
const NO_FOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
const NON_BLOCK = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A file's bytes, or why they were not read. Never opens a FIFO or a device, never follows a link. */
function readBytes(file: string): Buffer | string {
  const st = lstatSync(file);
  if (!st.isFile()) return 'it is not a regular file';
  const tooBig = `it is larger than ${MAX_COMMAND_FILE_BYTES / 1024} KB`;
  if (st.size > MAX_COMMAND_FILE_BYTES) return tooBig;
  // O_NONBLOCK: a FIFO swapped in after the check still opens at once and fstat refuses it.
  const fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  try {
    if (!fstatSync(fd).isFile()) return 'it is not a regular file';
    const buf = Buffer.alloc(MAX_COMMAND_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
      // A file that grew after the size check is still cut off here.
      if (length > MAX_COMMAND_FILE_BYTES) return tooBig;
    }
    return buf.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * One command file's text, or why it is not loaded. A link is followed only when it leads inside
 * `realDir` (the commands folder, where it really is): a cloned repository cannot make a command
 * of `~/.ssh/id_rsa` by linking to it.
 */
export function readCommandFile(file: string, entry: Dirent, realDir: string): string | { problem: string } {
  let target = file;
  if (entry.isSymbolicLink()) {
    try {
      target = realpathSync.native(file);
    } catch {
      return { problem: 'Not loaded: it is a link that leads nowhere.' };
    }
    if (!isInside(realDir, target))
      return { problem: `Not loaded: it is a link leading outside the commands folder (to ${target}).` };
  } else if (!entry.isFile())
    return { problem: 'Not loaded: it is not a regular file (a FIFO, socket or device is never read).' };
  let bytes: Buffer | string;
  try {
    bytes = readBytes(target);
  } catch (error) {
    return { problem: `Not loaded: it could not be read (${errorText(error)}).` };
  }
  if (typeof bytes === 'string') return { problem: `Not loaded: ${bytes}.` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: 'Not loaded: it is not UTF-8 text.' };
  }
  if (text.includes('\0')) return { problem: 'Not loaded: it contains NUL bytes, so it is not a text file.' };
  return text;
}
