import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

export type MemoryPathErrorCode =
  | 'nul-byte'
  | 'too-short'
  | 'unc-path'
  | 'tilde'
  | 'relative'
  | 'not-nfc'
  | 'outside-memory-dir'
  | 'symlink-escape'
  | 'unresolvable';

export type MemoryPathResult =
  { ok: true; path: string } | { ok: false; code: MemoryPathErrorCode; message: string };

export interface ValidateMemoryPathOptions {
  /**
   * Expand `~/x` against this home folder. Off by default: a tool call names files by absolute path,
   * and only settings (`autoMemoryDirectory`) may use `~/`, through memory-settings.ts.
   */
  home?: string;
}

const fail = (code: MemoryPathErrorCode, message: string): MemoryPathResult => ({ ok: false, code, message });

/**
 * Whether `candidate` names a file inside `memoryDir`, checked in seven layers, cheapest first:
 * NUL bytes, UNC, tilde forms, length, relative paths, Unicode NFC, then symlinks resolved on both
 * sides. Writes inside the memory directory are allowed without asking, so each layer exists because
 * a path that passes it could otherwise land a write somewhere else (a share on the network, the
 * home folder, a link planted in the memory directory). On success `path` is the real path to
 * write to.
 */
export function validateMemoryPath(
  candidate: string,
  memoryDir: string,
  opts: ValidateMemoryPathOptions = {},
): MemoryPathResult {
  // 1. NUL: the OS cuts the path at the NUL, so the checked path and the written path would differ.
  if (candidate.includes('\0')) return fail('nul-byte', 'The path contains a NUL byte.');
  // 2. UNC: `\\server\share` or `//server/share` reaches another machine (and leaks credentials on Windows).
  if (/^[\\/]{2}/.test(candidate)) return fail('unc-path', `"${candidate}" is a network (UNC) path.`);
  // 3. Tilde: bare `~`, `~/` and `~/..` name the home folder or above it, never a memory file;
  // `~user/` names someone else's. `~/x` is expanded only when the caller allows it (opts.home).
  let p = candidate;
  if (p.startsWith('~')) {
    const rest = p.slice(2);
    const homeOrAbove = p === '~' || rest === '' || /^\.\.(?:[/\\]|$)/.test(rest);
    if (homeOrAbove || !/^~[/\\]/.test(p)) {
      return fail('tilde', `"${candidate}" names a home folder or above it, not a memory file.`);
    }
    if (!opts.home) return fail('tilde', `"${candidate}" starts with "~"; give the full path instead.`);
    const home = path.resolve(opts.home);
    p = path.resolve(home, rest);
    if (!isInside(p, home)) return fail('tilde', `"${candidate}" leaves the home folder.`);
  }
  // 4. Too short to name anything inside a folder ("/a", "C:").
  if (p.length < 3) return fail('too-short', `The path "${candidate}" is too short to be a memory file.`);
  // 5. Relative paths resolve against whatever the current folder happens to be.
  if (!path.isAbsolute(p)) return fail('relative', `"${candidate}" is a relative path; give the full path.`);
  // 6. NFC: "cafe\u0301" and "café" are two different names on most Linux filesystems. Checking one
  // spelling while the caller writes the other would let a link named in the other spelling carry
  // the write out, so a path that is not already NFC is refused rather than normalised.
  if (p.normalize('NFC') !== p) {
    return fail('not-nfc', `"${candidate}" is not in Unicode NFC form; rename it using composed characters.`);
  }
  p = path.resolve(p);
  const dir = path.resolve(memoryDir);
  // 7. Inside the memory directory, first as written (`..` already folded by resolve), then with
  // every symlink resolved, so a link planted in the memory directory cannot carry a write out.
  const realDir = realPathOf(dir);
  if (!realDir.ok) return fail('unresolvable', `The memory directory cannot be resolved: ${realDir.message}`);
  if (!isInside(p, dir) && !isInside(p, realDir.path)) {
    return fail('outside-memory-dir', `"${candidate}" is outside the memory directory ${dir}.`);
  }
  const real = realPathOf(p);
  if (!real.ok) return fail('unresolvable', `"${candidate}" cannot be resolved: ${real.message}`);
  if (!isInside(real.path, realDir.path)) {
    return fail(
      'symlink-escape',
      `"${candidate}" leads through a symbolic link to ${real.path}, outside the memory directory.`,
    );
  }
  // The real path as the filesystem spells it: normalising it here would name another file.
  return { ok: true, path: real.path };
}

/** Strictly inside: the memory directory itself is not a memory file. */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * The real path of `p`, which need not exist yet: the deepest existing ancestor is resolved and the
 * rest appended. A component that exists only as a dangling link is refused, since writing through
 * it would create its target wherever it points.
 */
export function realPathOf(p: string): { ok: true; path: string } | { ok: false; message: string } {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = realpathSync(cur);
      return { ok: true, path: path.join(real, ...missing.reverse()) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { ok: false, message: (error as Error).message };
      // It exists but cannot be followed: a dangling link, or a file where a folder should be.
      if (exists(cur))
        return { ok: false, message: `${cur} cannot be followed (a broken link or not a folder)` };
      const parent = path.dirname(cur);
      if (parent === cur) return { ok: false, message: `no part of ${p} exists` };
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
