import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  watch,
  type FSWatcher,
} from 'node:fs';
import path from 'node:path';

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

function kind(p: string): 'dir' | 'file' | null {
  try {
    return lstatSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

interface RootState {
  root: string;
  git: 'dir' | 'file' | null;
  commondir: boolean;
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
      return { root, git, commondir: git === 'dir' && existsSync(path.join(root, '.git', 'commondir')) };
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
      `${Date.now()}-${path.relative(path.dirname(path.dirname(file)), file).replace(/[/\\]/g, '_')}`,
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
    const git = path.join(s.root, '.git');
    const now = kind(git);
    if (s.git !== null || now === null) return;
    if (now === 'file') {
      this.moveAside(git, 'a .git file points git at a repository elsewhere');
      return;
    }
    this.checkCommondir(s);
    const hooks = path.join(git, 'hooks');
    if (kind(hooks) === 'dir')
      for (const name of readdirSync(hooks))
        if (!name.endsWith('.sample')) this.moveAside(path.join(hooks, name), 'git runs its hooks');
    const config = path.join(git, 'config');
    if (kind(config) === 'file' && !isHarmlessGitConfig(readFileSync(config, 'utf8')))
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
