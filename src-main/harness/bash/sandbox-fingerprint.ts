import { lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/**
 * What a sandbox's mounts were made from, so a long-lived sandboxed shell is reused only while a
 * sandbox started now would look the same. The runtime resolves its rules once, when bubblewrap
 * starts: globs become the paths they match then, a missing protected path becomes an empty file
 * mounted read-only, symlinks are followed. So besides the policy itself this records what those
 * resolutions read: every named path's identity (a `.git` that appeared, a mount point someone
 * deleted — which unmounts it inside the sandbox), and every path a deny-read glob matches (a new
 * `.env`). Any difference means a new shell. Null when it cannot be told cheaply (a glob over too
 * many files): then every command gets a sandbox of its own, as before.
 */

const GLOB_CHARS = /[*?[\]{}]/;
/** Entries a glob may walk before the shell stops being reused (a fresh sandbox per command instead). */
const MAX_WALK = 500_000;

export interface SandboxInputs {
  writable: readonly string[];
  denyWrite: readonly string[];
  denyRead: readonly string[];
  allowedDomains: readonly string[];
}

/** A path's identity: kind, inode and size (an empty mount-point file that gained content counts). */
function identity(p: string): string {
  try {
    const s = lstatSync(p);
    return `${s.mode}:${s.ino}:${s.isFile() ? s.size : 0}`;
  } catch {
    return '-';
  }
}

/** The fixed part of a glob: the folder to walk from. */
function globBase(glob: string): string {
  const parts = glob.split('/');
  const fixed: string[] = [];
  for (const part of parts) {
    if (GLOB_CHARS.test(part)) break;
    fixed.push(part);
  }
  return fixed.join('/') || '/';
}

/** What one folder held when last read: its matches and subfolders, valid while its stat is unchanged. */
interface FolderScan {
  /** Device and inode: which folder it is, whatever the path (a symlinked folder is walked once). */
  id: string;
  key: string;
  matches: string[];
  folders: string[];
}

/** Per glob: its matcher and the folders read for it (a folder is read again only once it changed). */
const scans = new Map<string, { isMatch: (p: string) => boolean; folders: Map<string, FolderScan> }>();

function scanFolder(
  dir: string,
  isMatch: (p: string) => boolean,
  cache: Map<string, FolderScan>,
): FolderScan | null {
  let key: string;
  let id: string;
  try {
    // Adding, removing or renaming an entry changes the folder's mtime and ctime.
    const st = statSync(dir);
    if (!st.isDirectory()) return null;
    id = `${st.dev}:${st.ino}`;
    key = `${id}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return null;
  }
  const known = cache.get(dir);
  if (known?.key === key) return known;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  const scan: FolderScan = { id, key, matches: [], folders: [] };
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (isMatch(p) || isMatch(`${p}/`)) scan.matches.push(p);
    let isDir = e.isDirectory();
    if (e.isSymbolicLink())
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        isDir = false;
      }
    if (isDir) scan.folders.push(p);
  }
  cache.set(dir, scan);
  return scan;
}

/**
 * Every path under the glob's base that it matches (through symlinked folders too), or null if too
 * many to walk. Folders unchanged since the last walk are not read again, only stat'ed.
 */
function globMatches(glob: string): string[] | null {
  let state = scans.get(glob);
  if (!state) {
    state = { isMatch: picomatch(glob, { dot: true }), folders: new Map() };
    scans.set(glob, state);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  const stack = [globBase(glob)];
  let walked = 0;
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    const scan = scanFolder(dir, state.isMatch, state.folders);
    if (!scan || seen.has(scan.id)) continue;
    seen.add(scan.id);
    walked += scan.folders.length + scan.matches.length + 1;
    if (walked > MAX_WALK) return null;
    out.push(...scan.matches);
    stack.push(...scan.folders);
  }
  return out.sort();
}

/**
 * The fingerprint of a sandbox made from `inputs` now, plus the identities of `mountTargets` (the
 * paths bubblewrap mounted, read from a running sandbox's argv). Null: do not reuse a shell.
 */
export function sandboxFingerprint(
  inputs: SandboxInputs,
  mountTargets: readonly string[] = [],
): string | null {
  const parts: string[] = [
    // The runtime's own mandatory denies are found from the process's working directory.
    process.cwd(),
    JSON.stringify([
      [...inputs.writable].sort(),
      [...inputs.denyWrite].sort(),
      [...inputs.denyRead].sort(),
      [...new Set(inputs.allowedDomains)].sort(),
    ]),
  ];
  for (const p of [...inputs.writable, ...inputs.denyWrite, ...mountTargets])
    parts.push(`${p}=${identity(p)}`);
  for (const p of inputs.denyRead) {
    if (!GLOB_CHARS.test(p)) {
      parts.push(`${p}=${identity(p)}`);
      continue;
    }
    const matches = globMatches(p);
    if (matches === null) return null;
    parts.push(`${p}:`, ...matches);
  }
  return parts.join('\n');
}

/** The paths a bubblewrap command line mounts over (`--bind`, `--ro-bind`, `--tmpfs` … targets). */
export function mountTargets(argv: readonly string[]): string[] {
  const text = argv.join(' ');
  const out = new Set<string>();
  const words = shellWords(text.slice(0, Math.max(0, text.indexOf(' -- ')) || text.length));
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '--tmpfs' || w === '--dir' || w === '--dev' || w === '--proc') {
      const t = words[i + 1];
      if (t?.startsWith('/')) out.add(t);
    } else if (w !== undefined && /^--(ro-|dev-)?bind(-try)?$/.test(w)) {
      const t = words[i + 2];
      if (t?.startsWith('/')) out.add(t);
    }
  }
  return [...out];
}

/** POSIX shell words, enough for the runtime's quoting (single quotes, double quotes, backslashes). */
function shellWords(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      cur += s.slice(i + 1, j < 0 ? s.length : j);
      i = j < 0 ? s.length : j;
      has = true;
    } else if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && i + 1 < s.length) i++;
        cur += s[i] ?? '';
        i++;
      }
      has = true;
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[++i] ?? '';
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}
