import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { FIXED_OVERRIDES, gitEnv } from '../context/git-status';
import type { TranscriptLine } from '../session/transcript-file';
import type { FileSnapshot } from '../tools/file-history';
import { hashContent } from '../tools/read-file-state';

/** Where a session keeps the before-images of the files its agents changed, by content hash. */
export function historyDir(sessionDir: string): string {
  return path.join(sessionDir, 'file-history');
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * The commit HEAD names in `root`, or null (no repository, no commit yet, git missing). Read-only:
 * rev-parse never moves a ref.
 */
export function headOf(root: string): string | null {
  try {
    // The hardened environment of the git snapshot (context/git-status.ts): no `git` found through
    // a relative PATH entry in the project, no system config, nothing that asks or runs a hook.
    const config = FIXED_OVERRIDES.flatMap((c) => ['-c', c]);
    const out = execFileSync('git', [...config, 'rev-parse', '--verify', '--quiet', 'HEAD'], {
      cwd: root,
      env: gitEnv(),
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    }).trim();
    return HASH.test(out) || /^[0-9a-f]{40}$/.test(out) ? out : null;
  } catch {
    return null;
  }
}

/** Stores `content` under its hash (written to a temporary name, then renamed: never half a file). */
export function storeBlob(dir: string, content: string | Buffer): string {
  const hash = hashContent(content);
  const file = path.join(dir, hash);
  if (existsSync(file)) return hash;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomUUID()}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, file);
  return hash;
}

/**
 * A stored before-image, as bytes, or null when it is missing or does not hash to its name (a
 * damaged or altered session folder must not be written into the project as if it were the old file).
 */
export function readBlob(sessionDir: string, hash: string): Buffer | null {
  if (!HASH.test(hash)) return null;
  try {
    const content = readFileSync(path.join(historyDir(sessionDir), hash));
    return hashContent(content) === hash ? content : null;
  } catch {
    return null;
  }
}

/**
 * The file's bytes as they are on disk, when they are what the tool read as `text`. The tools read
 * files as UTF-8, which turns every byte that is not UTF-8 (a Latin-1 source file, an image) into
 * U+FFFD: kept as that text, a rewind would write a damaged copy back and call it restored. A
 * file that is not what the tool read (changed in between), or not a regular file, gives null.
 */
function bytesOnDisk(file: string, text: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const bytes = readFileSync(fd);
    return bytes.toString('utf8') === text ? bytes : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Persists each snapshot of a session's FileHistory: the before-image into the session folder, and a
 * `file` line into the session's transcript (in order with its messages, which is what a rewind
 * reads). It runs before the tool writes: if the before-image cannot be kept (a full disk), the
 * edit fails instead of making a change nobody could undo.
 */
export function persistFileHistory(o: {
  sessionDir: string;
  projectRoot: string;
  append: (line: TranscriptLine) => void;
}): (snapshot: FileSnapshot) => void {
  const dir = historyDir(o.sessionDir);
  return (s) => {
    const beforeHash = s.before === null ? null : storeBlob(dir, bytesOnDisk(s.path, s.before) ?? s.before);
    o.append({
      type: 'file',
      path: s.path,
      beforeHash,
      afterHash: s.after === undefined ? null : hashContent(s.after),
      toolUseId: s.toolUseId,
      head: headOf(o.projectRoot),
      at: new Date(s.at).toISOString(),
    });
  };
}
