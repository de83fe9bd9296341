import { statSync } from 'node:fs';
import path from 'node:path';
import type { SimpleCommand } from './extract';
import { namesLong, parseOptions, type OptionSpec, type Token } from './options';
import { commandReadOnlyReason } from './readonly';

/**
 * The files and folders a read-only command reads, taken from its words: where `cat ~/.ssh/id_rsa`
 * or `grep -f ../../x pat` would read, so the same path rules as the Read tool can apply to them.
 * Each allowlisted program has its own shape (which options take a value, which values are files,
 * whether the first operand is a pattern); a word it cannot place counts as a path, the cautious
 * reading.
 */

export interface CommandReads {
  /** The command's index in the analysis' list. */
  index: number;
  name: string;
  /** Absolute paths (lexical: `..` folded, `~` expanded, no symlink followed), one per word and directory. */
  paths: string[];
  /** Words naming paths that cannot be known before it runs: globs, `~user`, after `cd -`. */
  unresolved: string[];
  /**
   * The command recurses into the folders it reads and follows the symlinks it meets there
   * (`grep -R`, `rg -L`, `find -L`): what it reads is not bounded by its paths. Names the form.
   */
  followsLinks?: string;
}

interface PathSpec extends OptionSpec {
  /** What the operands are: files (the default), nothing, or only the words that look like paths. */
  operands?: 'files' | 'none' | 'path-like';
  /** The first operand is a program or pattern, unless one of these options supplies it. */
  scriptUnless?: readonly string[];
  /** Options whose value is a file. */
  fileOptions?: readonly string[];
}

const NONE: PathSpec = { operands: 'none' };
const GREP: PathSpec = {
  shortValues: 'efmABCdD',
  longValues: [
    '--regexp',
    '--file',
    '--max-count',
    '--after-context',
    '--before-context',
    '--context',
    '--label',
    '--include',
    '--exclude',
    '--exclude-dir',
    '--exclude-from',
    '--directories',
    '--devices',
    '--binary-files',
    '--group-separator',
  ],
  scriptUnless: ['-e', '--regexp', '-f', '--file'],
  fileOptions: ['-f', '--file', '--exclude-from'],
};
const HEAD: PathSpec = { shortValues: 'nc', longValues: ['--lines', '--bytes'] };
const SUMS: PathSpec = {};
const AWK: PathSpec = {
  shortValues: 'Fvf',
  longValues: ['--field-separator', '--assign', '--file'],
  scriptUnless: ['-f', '--file'],
  fileOptions: ['-f', '--file'],
};

const SPECS: Record<string, PathSpec> = {
  cat: {},
  head: HEAD,
  tail: {
    shortValues: 'ncs',
    longValues: ['--lines', '--bytes', '--sleep-interval', '--pid', '--max-unchanged-stats'],
  },
  wc: { fileOptions: ['--files0-from'], longValues: ['--files0-from'] },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    shortValues: 'efgtTmABCMjrEd',
    longValues: [
      '--regexp',
      '--file',
      '--glob',
      '--iglob',
      '--type',
      '--type-not',
      '--max-count',
      '--after-context',
      '--before-context',
      '--context',
      '--max-columns',
      '--threads',
      '--replace',
      '--encoding',
      '--max-depth',
      '--type-add',
      '--type-clear',
      '--colors',
      '--color',
      '--sort',
      '--sortr',
      '--max-filesize',
      '--path-separator',
      '--context-separator',
      '--field-match-separator',
      '--field-context-separator',
      '--engine',
      '--dfa-size-limit',
      '--regex-size-limit',
      '--hyperlink-format',
      '--ignore-file',
    ],
    scriptUnless: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'],
    fileOptions: ['-f', '--file', '--ignore-file'],
  },
  ls: {
    shortValues: 'IwT',
    longValues: [
      '--ignore',
      '--hide',
      '--width',
      '--tabsize',
      '--block-size',
      '--format',
      '--sort',
      '--time',
      '--time-style',
      '--quoting-style',
      '--indicator-style',
    ],
  },
  sort: {
    shortValues: 'ktST',
    longValues: [
      '--key',
      '--field-separator',
      '--buffer-size',
      '--temporary-directory',
      '--files0-from',
      '--parallel',
      '--batch-size',
      '--random-source',
    ],
    fileOptions: ['-T', '--temporary-directory', '--files0-from', '--random-source'],
  },
  stat: { shortValues: 'c', longValues: ['--format', '--printf'] },
  du: {
    shortValues: 'dBtX',
    longValues: [
      '--max-depth',
      '--block-size',
      '--threshold',
      '--exclude',
      '--exclude-from',
      '--files0-from',
      '--time-style',
    ],
    fileOptions: ['-X', '--exclude-from', '--files0-from'],
  },
  file: {
    shortValues: 'eFPmf',
    longValues: ['--exclude', '--separator', '--parameter', '--magic-file', '--files-from'],
    fileOptions: ['-m', '--magic-file', '-f', '--files-from'],
  },
  realpath: {
    fileOptions: ['--relative-to', '--relative-base'],
    longValues: ['--relative-to', '--relative-base'],
  },
  readlink: {},
  tree: { shortValues: 'LPIHTo', fileOptions: ['--fromfile'] },
  cut: {
    shortValues: 'dfbc',
    longValues: ['--delimiter', '--fields', '--bytes', '--characters', '--output-delimiter'],
  },
  uniq: { shortValues: 'fsw', longValues: ['--skip-fields', '--skip-chars', '--check-chars'] },
  nl: { shortValues: 'bdfhilnsvw' },
  rev: {},
  tac: { shortValues: 's', longValues: ['--separator'] },
  diff: {
    shortValues: 'CUIxXFDL',
    longValues: [
      '--exclude-from',
      '--from-file',
      '--to-file',
      '--label',
      '--ignore-matching-lines',
      '--exclude',
    ],
    fileOptions: ['-X', '--exclude-from', '--from-file', '--to-file'],
  },
  cmp: { shortValues: 'in', longValues: ['--ignore-initial', '--bytes'] },
  comm: {},
  md5sum: SUMS,
  sha1sum: SUMS,
  sha256sum: SUMS,
  sed: {
    shortValues: 'efl',
    longValues: ['--expression', '--file', '--line-length'],
    scriptUnless: ['-e', '--expression', '-f', '--file'],
    fileOptions: ['-f', '--file'],
  },
  awk: AWK,
  gawk: AWK,
  column: { shortValues: 'cEHilNnOoprRsTW' },
  fold: { shortValues: 'w' },
  fmt: { shortValues: 'wpg' },
  od: { shortValues: 'AjNtS' },
  hexdump: { shortValues: 'ensf', fileOptions: ['-f'] },
  strings: { shortValues: 'ntesT' },
  xxd: { shortValues: 'cglosnR' },
  test: { operands: 'path-like' },
  '[': { operands: 'path-like' },
  date: {
    ...NONE,
    shortValues: 'dfr',
    longValues: ['--date', '--file', '--reference'],
    fileOptions: ['-f', '--file', '-r', '--reference'],
  },
  xargs: {
    ...NONE,
    shortValues: 'adEILnPs',
    longValues: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines'],
    fileOptions: ['-a', '--arg-file'],
  },
  git: {
    shortValues: 'C',
    fileOptions: ['-C', '--file', '--contents'],
    longValues: ['--file', '--contents'],
  },
};

/** Read-only commands none of whose words name a file. */
const NAMES_NO_FILES = new Set([
  'echo',
  'printf',
  'pwd',
  'which',
  'whoami',
  'id',
  'uname',
  'hostname',
  'true',
  'false',
  'basename',
  'dirname',
  'seq',
  'sleep',
  'expr',
  'type',
  'printenv',
  'env',
  'ps',
  'pgrep',
  'uptime',
  'free',
  'nproc',
  'locale',
  'tr',
  'command',
  'df',
]);

const FIND_VALUE = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-lname',
  '-ilname',
  '-type',
  '-xtype',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-perm',
  '-size',
  '-mtime',
  '-atime',
  '-ctime',
  '-mmin',
  '-amin',
  '-cmin',
  '-maxdepth',
  '-mindepth',
  '-links',
  '-inum',
  '-used',
  '-fstype',
  '-printf',
  '-regextype',
  '-context',
]);
const FIND_FILE = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from']);

/** find: its starting points, and the files its tests compare with (`-newer F`). */
function findWords(args: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < args.length && /^-([HLP]|D|O\d*)$/.test(args[i] ?? '')) i += args[i] === '-D' ? 2 : 1;
  for (; i < args.length; i++) {
    const a = args[i] ?? '';
    if (FIND_FILE.has(a) || /^-newer[aBcm][aBcmt]$/.test(a)) out.push(args[++i] ?? '');
    else if (FIND_VALUE.has(a)) i++;
    else if (!a.startsWith('-') && !['(', ')', '!', ','].includes(a)) out.push(a);
  }
  return out;
}

/** jq: the filter comes first (unless -f gives it), `--slurpfile NAME FILE` reads, `--args` ends the files. */
function jqWords(args: readonly string[]): string[] {
  const out: string[] = [];
  let filterGiven = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--args' || a === '--jsonargs') break;
    if (a === '--arg' || a === '--argjson') i += 2;
    else if (a === '--slurpfile' || a === '--rawfile') {
      out.push(args[i + 2] ?? '');
      i += 2;
    } else if (a === '-f' || a === '--from-file') {
      out.push(args[++i] ?? '');
      filterGiven = true;
    } else if (a === '-L' || a === '--indent') {
      if (a === '-L') out.push(args[i + 1] ?? '');
      i++;
    } else if (a.startsWith('-') && a !== '-') continue;
    else if (!filterGiven) filterGiven = true;
    else out.push(a);
  }
  return out;
}

const optionIn = (t: Token, list: readonly string[] | undefined): boolean =>
  t.kind !== 'operand' &&
  (list ?? []).some((o) => (o.startsWith('--') ? t.kind === 'long' && namesLong(t.flag, o) : t.flag === o));

/** The words of one read-only command that name files it reads, or null when it names none. */
export function pathWords(core: readonly string[]): string[] {
  const [name = '', ...args] = core;
  if (name === 'find') return findWords(args);
  if (name === 'jq') return jqWords(args);
  // A program not described here is read as taking files: the cautious reading.
  const spec =
    (Object.hasOwn(SPECS, name) ? SPECS[name] : undefined) ?? (NAMES_NO_FILES.has(name) ? NONE : {});
  const tokens = parseOptions(args, spec);
  const out: string[] = [];
  let scriptPending = spec.scriptUnless !== undefined && !tokens.some((t) => optionIn(t, spec.scriptUnless));
  for (const t of tokens) {
    if (t.kind !== 'operand') {
      if (t.value !== undefined && optionIn(t, spec.fileOptions)) out.push(t.value);
      continue;
    }
    if (t.word === '-' || t.word === ']') continue;
    if (scriptPending) {
      scriptPending = false;
      continue;
    }
    const kind = spec.operands ?? 'files';
    if (kind === 'files' || (kind === 'path-like' && /^[~./]|\//.test(t.word))) out.push(t.word);
  }
  return out;
}

/** Where a command reads from a file given by an input redirect (`< f`, `0< f`, `3< f`, `<> f`). */
const INPUT_REDIRECT = new Set(['<', '<>']);

/**
 * The input-redirect targets of a simple command, whatever the command: the shell opens them for
 * reading before it runs (`cat < ~/.ssh/id_rsa` reads the key as surely as `cat ~/.ssh/id_rsa`).
 * Here-strings and heredocs are text, not files; `<&N` duplicates a descriptor; `/dev/null` reads
 * nothing. A computed target (null) or a glob cannot be known before it runs.
 */
function redirectWords(c: SimpleCommand): { word: string | null; glob: boolean }[] {
  return c.redirects
    .filter((r) => INPUT_REDIRECT.has(r.op) && r.target !== '/dev/null')
    .map((r) => ({ word: r.target, glob: r.glob === true }));
}

/**
 * The form of a read-only command that recurses and follows the symlinks under what it reads, or
 * null. `grep -r` and `find`, `du`, `ls -R` without `-L` do not follow links they meet (only ones
 * named on the command line, whose targets are resolved like any path); `diff -r` does, unless told not to.
 */
export function linkFollowing(core: readonly string[]): string | null {
  const [name = '', ...args] = core;
  if (name === 'find') {
    for (const a of args) {
      if (a === '-L') return '`find -L`';
      if (!/^-([HLP]|D|O\d*)$/.test(a)) break;
    }
    return args.includes('-follow') ? '`find -follow`' : null;
  }
  const spec = Object.hasOwn(SPECS, name) ? SPECS[name] : undefined;
  if (spec === undefined) return null;
  const tokens = parseOptions(args, spec);
  const has = (...flags: string[]) => tokens.some((t) => optionIn(t, flags));
  switch (name) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return has('-R', '--dereference-recursive') ? `\`${name} -R\`` : null;
    case 'rg':
      return has('-L', '--follow') ? '`rg --follow`' : null;
    case 'ls':
      return has('-L', '--dereference') && has('-R', '--recursive') ? '`ls -LR`' : null;
    case 'du':
      return has('-L', '--dereference') ? '`du -L`' : null;
    case 'tree':
      return has('-l') ? '`tree -l`' : null;
    case 'diff':
      return has('-r', '--recursive') && !has('--no-dereference') ? '`diff -r`' : null;
    default:
      return null;
  }
}

/** Recursive commands that read the working directory when given no path. */
const DEFAULT_DOT = new Set(['grep', 'egrep', 'fgrep', 'rg', 'find', 'ls', 'du', 'tree']);

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** `~` and `~/x` are the home folder; other tilde forms (`~user`, `~+`) are not known before running. */
function expandTilde(word: string, home: string): string | null {
  if (word === '~' || word.startsWith('~/')) return path.join(home, word.slice(1));
  return word.startsWith('~') ? null : word;
}

/**
 * The paths every read-only command of a line reads, against the directory it would run in: a `cd`
 * earlier on the line moves the later ones (`cd ~/.ssh && cat id_rsa`). Where a `cd` may fail (its
 * folder does not exist yet), a relative path is taken against every directory the line could be in.
 * The files input redirects open are read by every command, read-only or not.
 */
export function readPaths(
  commands: readonly SimpleCommand[],
  o: { cwd: string; home: string },
): CommandReads[] {
  let dirs: string[] | null = [o.cwd];
  const out: CommandReads[] = [];
  commands.forEach((c, index) => {
    const name = c.core[0];
    if (typeof name !== 'string') return;
    const changesDir = name === 'cd' || name === 'pushd' || name === 'popd';
    const reads: CommandReads = { index, name, paths: [], unresolved: [] };
    const add = (word: string | null, globbed: boolean) => {
      const expanded = word === null || (word === '-' && name === 'cd') ? null : expandTilde(word, o.home);
      if (expanded === null || globbed || (dirs === null && !path.isAbsolute(expanded))) {
        reads.unresolved.push(word ?? '(a computed path)');
        return;
      }
      for (const dir of path.isAbsolute(expanded) ? [o.cwd] : (dirs ?? []))
        reads.paths.push(path.resolve(dir, expanded));
    };
    // The shell opens input redirects before anything runs, read-only command or not.
    for (const r of redirectWords(c)) add(r.word, r.glob);
    if (commandReadOnlyReason(c) !== null) {
      if (changesDir) dirs = null;
      if (reads.paths.length > 0 || reads.unresolved.length > 0) out.push(reads);
      return;
    }
    const core = c.core as string[];
    const words = name === 'cd' ? [core.slice(1).find((a) => !/^-[LPe@]+$/.test(a)) ?? '~'] : pathWords(core);
    const follows = name === 'cd' ? null : linkFollowing(core);
    if (follows !== null) {
      reads.followsLinks = follows;
      if (words.length === 0 && DEFAULT_DOT.has(name)) words.push('.');
    }
    const fromRedirects = reads.paths.length;
    for (const word of words) add(word, c.glob && /[*?[]/.test(word));
    if (name === 'cd') {
      // A cd to a folder that exists moves the line there; one that may fail leaves it where it was too.
      const target = reads.paths.slice(fromRedirects);
      const lands = target.every(isDirectory);
      dirs =
        reads.unresolved.length > 0 || dirs === null
          ? null
          : lands
            ? [...new Set(target)]
            : [...new Set([...dirs, ...target])];
    }
    if (reads.paths.length > 0 || reads.unresolved.length > 0) out.push(reads);
  });
  return out;
}
