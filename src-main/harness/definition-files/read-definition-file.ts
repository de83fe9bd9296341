import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
} from 'node:fs';
import { isInside } from '../tools/paths';

/**
 * Reading the files a project or a person writes to define commands, skills and agents: small
 * Markdown files in folders a cloned repository controls. Never opens a FIFO or a device (it would
 * block the main thread), never follows a link it has not checked, never reads past a size cap.
 */

// Not defined on Windows (no FIFOs to fear there, and links are checked before opening).
const NO_FOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
const NON_BLOCK = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A file's UTF-8 text, or why it was not read (`problem`, lowercase, without `Not loaded:`). Never
 * follows a link (the caller resolves and checks links first), and a 50 MB file costs one lstat,
 * not 50 MB of memory. `notAFile` words the refusal of a path that is no regular file.
 */
export function readCappedText(
  file: string,
  maxBytes: number,
  o: { notAFile?: string } = {},
): string | { problem: string } {
  const tooBig = { problem: `it is larger than ${maxBytes / 1024} KB` };
  let fd: number;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return { problem: o.notAFile ?? 'it is not a regular file' };
    if (st.size > maxBytes) return tooBig;
    // O_NONBLOCK: were the file swapped for a FIFO after the check, opening it still returns at once,
    // and the fstat below refuses it. O_NOFOLLOW: nor is a link swapped in followed.
    fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch (error) {
    return { problem: `it could not be read (${errorText(error)})` };
  }
  try {
    if (!fstatSync(fd).isFile()) return { problem: 'it is not a regular file' };
    const buf = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
      // A file that grew after the size check is still cut off here.
      if (length > maxBytes) return tooBig;
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
    return { problem: `it could not be read (${errorText(error)})` };
  } finally {
    closeSync(fd);
  }
}

/**
 * One file found in a definitions folder: its text, or why it is not loaded (`Not loaded: …`). A
 * link is followed only when it leads inside `realDir` (the folder, where it really is): a cloned
 * repository cannot make a command of `~/.ssh/id_rsa` by linking to it. `folder` names the folder
 * in messages (`commands folder`).
 */
export function readDefinitionFile(
  file: string,
  entry: Dirent,
  realDir: string,
  o: { folder: string; maxBytes: number },
): string | { problem: string } {
  if (entry.isDirectory()) return { problem: 'Not loaded: it is a folder, not a file.' };
  let target = file;
  if (entry.isSymbolicLink()) {
    try {
      target = realpathSync.native(file);
    } catch {
      return { problem: 'Not loaded: it is a link that leads nowhere.' };
    }
    if (!isInside(realDir, target))
      return { problem: `Not loaded: it is a link leading outside the ${o.folder} (to ${target}).` };
  } else if (!entry.isFile())
    return { problem: 'Not loaded: it is not a regular file (a FIFO, socket or device is never read).' };
  const text = readCappedText(target, o.maxBytes);
  if (typeof text === 'string') return text;
  return {
    problem: `Not loaded: ${target === file ? text.problem : `it leads to ${target}, and ${text.problem}`}.`,
  };
}

/**
 * Where a definitions folder (`.claude/agents`, `.claude/skills`, …) really is, links resolved; null
 * when there is none, or why it is not read (`Not read: …`).
 */
export function realFolder(dir: string): string | { problem: string } | null {
  try {
    const realDir = realpathSync.native(dir);
    if (!statSync(realDir).isDirectory()) return { problem: 'Not read: it is not a folder.' };
    return realDir;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Most of these folders simply do not exist; `.claude` being a file is no such folder either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { problem: `Not read: ${errorText(error)}.` };
  }
}
