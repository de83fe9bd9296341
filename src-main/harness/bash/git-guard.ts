import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  watch,
  type FSWatcher,
} from 'node:fs';
import path from 'node:path';
import { NOT_ENTERED, walkFolders } from '../../platform/walk';

/**
 * What the sandbox's read-only mounts cannot cover: files git would obey that do not exist yet. A
 * read-only stand-in for an absent `.git/commondir` makes git fail outright, so instead its creation
 * is watched while a sandboxed command runs and the file is moved aside at once (into the session's
 * quarantine folder, where nothing reads it). A repository the command created itself (`git init`)
 * is checked when the command ends: hooks other than git's samples, a config with keys that make git
 * run programs, and a `.git` file pointing elsewhere are moved aside the same way.
 */

/** Config keys `git init`/`clone` write and that run nothing; anything else in a new repository is suspect. */
const HARMLESS_KEYS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf)$/,
  /^init\.defaultbranch$/,
  /^user\.(name|email)$/,
  /^remote\.[^.]+\.(url|fetch|pushurl)$/,
  /^branch\.[^.]+\.(remote|merge)$/,
  /^extensions\.objectformat$/,
];

/** True when every key of a git config file is one of the harmless ones (unparsable → false). */
export function isHarmlessGitConfig(text: string): boolean {
  let section: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]$/.exec(line);
    if (header) {
      const name = (header[1] ?? '').toLowerCase();
      section = header[2] !== undefined ? `${name}.${header[2]}` : name;
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(=.*)?$/.exec(line);
    if (!kv || section === null) return false;
    const key = `${section}.${(kv[1] ?? '').toLowerCase()}`;
    if (!HARMLESS_KEYS.some((re) => re.test(key))) return false;
  }
  return true;
}

/** What is at `p`, not following a link: a regular file, a folder, or anything else (link, FIFO, device). */
function kind(p: string): 'dir' | 'file' | 'other' | null {
  try {
    const st = lstatSync(p);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  } catch {
    return null;
  }
}

/** The inode at `p` (not following a link), or -1: a repository replaced at the same path is a new one. */
function inodeOf(p: string): number {
  try {
    return lstatSync(p).ino;
  } catch {
    return -1;
  }
}

/** A config larger than this is not read (nothing git writes comes near it): it is moved aside. */
const MAX_CONFIG_BYTES = 1024 * 1024;

interface RootState {
  root: string;
  git: 'dir' | 'file' | 'other' | null;
  commondir: boolean;
  /** `.git/modules` existed (then the sandbox holds it read-only). */
  modules: boolean;
  /** Nested `.git` entries that were there before the command (the walk's depth), by inode. */
  nested: Map<string, number>;
  /** Submodule entries (gitlinks) of the root's index before the command, with their `.git`'s inode. */
  gitlinks: Map<string, number>;
  indexMtimeMs: number;
}

/** How deep nested repositories are looked for, as the sandbox's protected paths are. */
const NESTED_DEPTH = 3;
const MAX_DIRS = 5_000;

/** Every `.git` below `root` (not its own), breadth first, without following links or entering `.git`. */
function nestedGits(root: string): Map<string, number> {
  const found = new Map<string, number>();
  walkFolders(root, { depth: NESTED_DEPTH, maxDirs: MAX_DIRS, skip: NOT_ENTERED }, (dir, entries) => {
    if (dir !== root)
      for (const e of entries)
        if (e.name === '.git') {
          const p = path.join(dir, e.name);
          found.set(p, inodeOf(p));
        }
  });
  return found;
}

function withInodes(root: string, links: Set<string>): Map<string, number> {
  return new Map([...links].map((l) => [l, inodeOf(path.join(root, l, '.git'))]));
}

function mtimeOf(p: string): number {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * The submodule entries of a repository's index: git recurses into them on `git status`, running
 * their repositories' fsmonitor and hooks. Read with git itself (the root's config is protected, so
 * this runs nothing the agent chose), with the fsmonitor off.
 */
const gitlinkCache = new Map<string, { mtimeMs: number; links: Set<string> }>();

function gitlinksOf(root: string): Set<string> {
  // Most commands leave the index alone: read it again only when it changed.
  const mtimeMs = mtimeOf(path.join(root, '.git', 'index'));
  const cached = gitlinkCache.get(root);
  if (cached?.mtimeMs === mtimeMs) return cached.links;
  const links = readGitlinks(root);
  gitlinkCache.set(root, { mtimeMs, links });
  return links;
}

function readGitlinks(root: string): Set<string> {
  try {
    const out = execFileSync('git', ['-c', 'core.fsmonitor=false', 'ls-files', '--stage', '-z'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
      },
    });
    const links = new Set<string>();
    for (const entry of out.split('\0')) {
      const m = /^160000 [0-9a-f]+ \d+\t(.+)$/s.exec(entry);
      if (m?.[1]) links.add(m[1]);
    }
    return links;
  } catch {
    return new Set();
  }
}

export class GitGuard {
  private readonly states: RootState[];
  private readonly watchers: FSWatcher[] = [];
  private readonly notes: string[] = [];
  private finished = false;

  constructor(
    roots: readonly string[],
    private readonly quarantineDir: string,
  ) {
    this.states = roots.map((root) => {
      const git = kind(path.join(root, '.git'));
      const index = path.join(root, '.git', 'index');
      return {
        root,
        git,
        commondir: git === 'dir' && existsSync(path.join(root, '.git', 'commondir')),
        modules: git === 'dir' && existsSync(path.join(root, '.git', 'modules')),
        nested: nestedGits(root),
        gitlinks:
          git === 'dir' && existsSync(index) ? withInodes(root, gitlinksOf(root)) : new Map<string, number>(),
        indexMtimeMs: mtimeOf(index),
      };
    });
    for (const s of this.states) {
      if (s.git !== 'dir' || s.commondir) continue;
      try {
        const w = watch(path.join(s.root, '.git'), (_event, name) => {
          if (name === 'commondir') this.checkCommondir(s);
        });
        w.on('error', () => undefined);
        this.watchers.push(w);
      } catch {
        // Not watchable (the folder vanished): the sweep at the end still runs.
      }
    }
  }

  private moveAside(file: string, why: string): void {
    if (kind(file) === null) return;
    mkdirSync(this.quarantineDir, { recursive: true, mode: 0o700 });
    const dest = path.join(
      this.quarantineDir,
      // Unique, so two repositories' `config` moved in the same millisecond never overwrite each other.
      `${Date.now()}-${randomUUID().slice(0, 8)}-${path.relative(path.dirname(path.dirname(file)), file).replace(/[/\\]/g, '_')}`,
    );
    try {
      renameSync(file, dest);
      this.notes.push(`Carapace moved ${file} aside (${why}); it is kept in ${dest}.`);
    } catch (error) {
      this.notes.push(`Carapace could not move ${file} aside (${why}): ${(error as Error).message}`);
    }
  }

  private checkCommondir(s: RootState): void {
    const file = path.join(s.root, '.git', 'commondir');
    if (!s.commondir && kind(file) !== null)
      this.moveAside(file, '.git/commondir would point git at another folder’s config and hooks');
  }

  private checkNewRepository(s: RootState): void {
    if (s.git === null) this.checkRepository(path.join(s.root, '.git'));
    if (s.git === 'dir' && !s.modules)
      this.moveAside(
        path.join(s.root, '.git', 'modules'),
        'submodule repositories made by a command could run their hooks on the person’s git status',
      );
    // Repositories the command made inside the project, and submodule entries it added to the index:
    // the person's `git status` (which recurses into submodules) or a `cd` there would obey them.
    // Keyed by inode: a repository moved away and made anew at the same path is a new one.
    for (const [git, ino] of nestedGits(s.root)) if (s.nested.get(git) !== ino) this.checkRepository(git);
    for (const [link, ino] of s.gitlinks) {
      const git = path.join(s.root, link, '.git');
      if (inodeOf(git) !== ino) this.checkRepository(git);
    }
    const index = path.join(s.root, '.git', 'index');
    if (s.git === 'dir' && mtimeOf(index) !== s.indexMtimeMs)
      for (const link of gitlinksOf(s.root))
        if (!s.gitlinks.has(link)) this.checkRepository(path.join(s.root, link, '.git'));
  }

  /** A repository the agent made (or newly tied in): pointers, planted hooks and program-running config go. */
  private checkRepository(git: string): void {
    const now = kind(git);
    if (now === null) return;
    if (now !== 'dir') {
      this.moveAside(git, 'a .git file or link points git at a repository elsewhere');
      return;
    }
    const commondir = path.join(git, 'commondir');
    if (kind(commondir) !== null)
      this.moveAside(commondir, '.git/commondir would point git at another folder’s config and hooks');
    const hooks = path.join(git, 'hooks');
    const hooksKind = kind(hooks);
    if (hooksKind === 'dir') {
      for (const name of readdirSync(hooks))
        if (!name.endsWith('.sample')) this.moveAside(path.join(hooks, name), 'git runs its hooks');
    } else if (hooksKind !== null) this.moveAside(hooks, 'a hooks link or file lets git run what it names');
    // Only a regular file of a sane size is read: a link could be rewritten later through its
    // target, and a FIFO would block the main process.
    const config = path.join(git, 'config');
    const configKind = kind(config);
    if (configKind === 'other')
      this.moveAside(config, 'a config that is not a plain file could change later');
    else if (
      configKind === 'file' &&
      (statSync(config).size > MAX_CONFIG_BYTES || !isHarmlessGitConfig(readFileSync(config, 'utf8')))
    )
      this.moveAside(config, 'its config makes git run programs');
  }

  /** Stops watching, sweeps once more, and says what was moved aside (for the model and the person). */
  finish(): string[] {
    if (this.finished) return this.notes;
    this.finished = true;
    for (const w of this.watchers) w.close();
    for (const s of this.states) {
      if (s.git === 'dir') this.checkCommondir(s);
      this.checkNewRepository(s);
    }
    return this.notes;
  }
}
