import type { SimpleCommand } from './extract';
import { namesLong, operands, parseOptions, type OptionSpec } from './options';

/**
 * The flag-level read-only allowlist: for each command known to only read, the flags that would make
 * it write or run something. A validator returns null when the call is read-only, else the reason a
 * person can read ("`find -exec` runs a command").
 */
type Validator = (args: readonly string[]) => string | null;

const always: Validator = () => null;

/**
 * Any of these flags disqualifies, however it is spelled: inside a bundle or with an attached value
 * (`-uo./out`), or as an abbreviated long option (`--outp=out`). `spec` names the options that take
 * a value, so an attached value is not read as more flags; an option it does not know is read as a
 * bundle of flags, which can only flag more.
 */
function forbidFlags(cmd: string, flags: Record<string, string>, spec: OptionSpec = {}): Validator {
  const longs = Object.keys(flags).filter((f) => f.startsWith('--'));
  return (args) => {
    for (const t of parseOptions(args, spec)) {
      if (t.kind === 'short' && flags[t.flag]) return `\`${cmd} ${t.flag}\` ${flags[t.flag] ?? ''}`;
      if (t.kind === 'long') {
        const hit = longs.find((f) => namesLong(t.flag, f));
        if (hit) return `\`${cmd} ${hit}\` ${flags[hit] ?? ''}`;
      }
    }
    return null;
  };
}

const findValidator: Validator = (args) => {
  const bad: Record<string, string> = {
    '-exec': 'runs a command',
    '-execdir': 'runs a command',
    '-ok': 'runs a command',
    '-okdir': 'runs a command',
    '-delete': 'deletes files',
    '-fprint': 'writes a file',
    '-fprint0': 'writes a file',
    '-fprintf': 'writes a file',
    '-fls': 'writes a file',
  };
  for (const a of args) if (bad[a]) return `\`find ${a}\` ${bad[a]}`;
  return null;
};

/** Git subcommands that only read the repository (the analysis and the classification share them). */
export const GIT_READ = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'rev-parse',
  'ls-files',
  'describe',
  'shortlog',
  'grep',
  'cat-file',
  'ls-tree',
  'reflog',
  'whatchanged',
]);
const gitValidator: Validator = (args) => {
  let i = 0;
  // Global options before the subcommand: only harmless ones.
  while (i < args.length && (args[i] ?? '').startsWith('-')) {
    const a = args[i] ?? '';
    if (a === '-c' || a.startsWith('--config-env') || a.startsWith('-c'))
      return '`git -c` sets configuration that can run commands';
    if (a === '-C') i++;
    else if (a.startsWith('--exec-path') || a.startsWith('--git-dir') || a.startsWith('--work-tree'))
      return `\`git ${a}\` points git somewhere else`;
    else if (a === '-p' || a === '--paginate') return '`git --paginate` starts a pager';
    i++;
  }
  const sub = args[i];
  if (sub === undefined) return null;
  const rest = args.slice(i + 1);
  if (sub === 'branch') {
    const listing = rest.every(
      (a) =>
        [
          '-a',
          '--all',
          '-r',
          '--remotes',
          '-v',
          '-vv',
          '--verbose',
          '--list',
          '--show-current',
          '--no-color',
          '--color',
          '--merged',
          '--no-merged',
          '--contains',
        ].includes(a) ||
        a.startsWith('--format') ||
        a.startsWith('--sort'),
    );
    return listing ? null : '`git branch` with these arguments changes branches';
  }
  if (sub === 'remote')
    return rest.length === 0 || (rest.length === 1 && rest[0] === '-v')
      ? null
      : '`git remote` with arguments changes remotes';
  // `stash list` and `stash show` take log and diff options (`--output`): checked below like the rest.
  if (sub === 'stash' && rest[0] !== 'list' && rest[0] !== 'show')
    return '`git stash` changes the working tree';
  if (sub === 'reflog' && rest.some((a) => a === 'expire' || a === 'delete'))
    return '`git reflog expire/delete` rewrites the reflog';
  if (sub === 'tag')
    return rest.length === 0 || rest.every((a) => a === '-l' || a === '--list' || a.startsWith('-n'))
      ? null
      : '`git tag` with arguments creates or deletes tags';
  if (sub === 'config')
    return rest.some((a) => a === '--get' || a === '--get-all' || a === '--list' || a === '-l') &&
      !rest.some((a) => a === '--add' || a === '--unset' || a === '--replace-all')
      ? null
      : '`git config` can change configuration';
  if (!GIT_READ.has(sub) && sub !== 'stash') return `\`git ${sub}\` is not a read-only git command`;
  for (const a of rest) {
    if (a === '--output' || a.startsWith('--output=') || a === '-o')
      return `\`git ${sub} --output\` writes a file`;
    if (a === '--ext-diff' || a.startsWith('--textconv') || a.startsWith('--exec') || a === '--filters')
      return `\`git ${sub} ${a}\` runs external programs`;
    if (a === '--paginate' || (a === '-p' && sub === 'grep')) return `\`git ${sub} ${a}\` starts a pager`;
    // `-O<pager>` takes its program attached, and git takes abbreviated long options (`--open-files-in-p`).
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (
      (sub === 'grep' && a.startsWith('-O')) ||
      (name.length > 3 && namesLong(name, '--open-files-in-pager'))
    )
      return `\`git ${sub} ${a}\` runs a program on the files it finds`;
  }
  return null;
};

/** The command letters of a sed script once `s`/`y` commands and /regex/ addresses are taken out. */
function sedCommands(script: string): string {
  return script
    .replace(
      /s(.)(?:\\.|(?!\1)[^\\])*\1(?:\\.|(?!\1)[^\\])*\1([a-zA-Z0-9]*)/g,
      (_m, _d: string, flags: string) => (/[we]/.test(flags) ? ' w ' : ' '),
    )
    .replace(/y(.)(?:\\.|(?!\1)[^\\])*\1(?:\\.|(?!\1)[^\\])*\1/g, ' ')
    .replace(/\/(?:\\.|[^/\\])*\//g, ' ');
}

/** GNU sed's options: `-e`, `-f` and `-l` take a value; `-i` takes an attached suffix. */
const SED_OPTIONS: OptionSpec = {
  shortValues: 'efl',
  longValues: ['--expression', '--file', '--line-length'],
};

const sedValidator: Validator = (args) => {
  const tokens = parseOptions(args, SED_OPTIONS);
  const scripts: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'operand') continue;
    if (t.flag === '-i' || (t.kind === 'long' && namesLong(t.flag, '--in-place')))
      return '`sed -i` edits files in place';
    if (t.flag === '-f' || (t.kind === 'long' && t.flag.length > 3 && namesLong(t.flag, '--file')))
      return '`sed -f` runs a script from a file';
    if (t.flag === '-e' || (t.kind === 'long' && namesLong(t.flag, '--expression')))
      scripts.push(t.value ?? '');
  }
  // Without -e the first operand is the script; the rest are files.
  if (scripts.length === 0) {
    const first = operands(tokens)[0];
    if (first !== undefined) scripts.push(first);
  }
  for (const script of scripts) {
    const letters = sedCommands(script);
    if (/[wWe]/.test(letters)) return 'the sed script writes a file or runs a command (w, W or e)';
    if (/[rR]/.test(letters)) return 'the sed script reads a file it names (r, R)';
  }
  return null;
};

/** Options awk may have and still only read: a field separator and variables. */
const AWK_OPTIONS: OptionSpec = { shortValues: 'Fv', longValues: ['--field-separator', '--assign'] };

const awkValidator: Validator = (args) => {
  const tokens = parseOptions(args, AWK_OPTIONS);
  for (const t of tokens) {
    if (t.kind === 'operand') continue;
    // gawk's -f/-i/-l/-E load code, -o/-p/-d write files (--profile=out): only -F and -v are judged.
    if (
      t.flag !== '-F' &&
      t.flag !== '-v' &&
      !(
        t.kind === 'long' &&
        t.value !== undefined &&
        (namesLong(t.flag, '--field-separator') || namesLong(t.flag, '--assign'))
      )
    )
      return `\`awk ${t.flag}\` is not known to only read`;
  }
  const program = (operands(tokens)[0] ?? '').replace(/\|\|/g, ' ');
  if (/system\s*\(/.test(program)) return '`awk system()` runs a command';
  if (program.includes('|')) return 'awk pipes to or from a command';
  if (/printf?\b[^;}]*>/.test(program)) return 'awk writes a file';
  if (/getline[^;}]*</.test(program)) return 'awk reads a file the program names';
  if (program.includes('@')) return 'gawk `@` directives load code or call functions by name';
  return null;
};

const xargsValidator: Validator = (args) =>
  args.some((a) => !a.startsWith('-')) ? '`xargs` runs a command' : null;

/**
 * xxd reads `xxd [options] [infile [outfile]]`: a second operand is a file it writes. Its options are
 * single-dash words told apart by their first letter (`-cols`, `-revert`), `--x` meaning `-x`; only
 * the display options are accepted, and a value is taken from the next word only for the exact
 * short spelling (`-c 16`), so an operand is never mistaken for a value.
 */
const xxdValidator: Validator = (args) => {
  let count = 0;
  for (let i = 0; i < args.length; i++) {
    const raw = args[i] ?? '';
    if (raw === '--') {
      count += args.length - i - 1;
      break;
    }
    const a = raw.startsWith('--') && raw.length > 2 ? raw.slice(1) : raw;
    if (!a.startsWith('-') || a === '-') {
      count++;
      continue;
    }
    const letter = a[1] ?? '';
    if (letter === 'r') return '`xxd -r` writes binary output';
    if ('cglosnR'.includes(letter)) {
      if (a.length === 2) i++;
    } else if (!'abCdeEhipuv'.includes(letter)) return `\`xxd ${raw}\` is not known to only read`;
  }
  return count > 1 ? '`xxd IN OUT` writes OUT' : null;
};

/** `uniq [IN [OUT]]`: a second operand (even after `-` for stdin) is a file it writes. */
const uniqValidator: Validator = (args) =>
  operands(
    parseOptions(args, {
      shortValues: 'fsw',
      longValues: ['--skip-fields', '--skip-chars', '--check-chars'],
    }),
  ).length > 1
    ? '`uniq IN OUT` writes a file'
    : null;

const HOSTNAME_SHOW = new Set([
  '-a',
  '--alias',
  '-A',
  '--all-fqdns',
  '-d',
  '--domain',
  '-f',
  '--fqdn',
  '--long',
  '-i',
  '--ip-address',
  '-I',
  '--all-ip-addresses',
  '-s',
  '--short',
  '-y',
  '--yp',
  '--nis',
  '-V',
  '--version',
  '-h',
  '--help',
]);

export const READ_ONLY: Record<string, Validator> = {
  ls: always,
  cat: always,
  head: always,
  tail: forbidFlags('tail', {
    '-f': 'follows the file without end',
    '--follow': 'follows the file without end',
    '-F': 'follows the file without end',
  }),
  wc: always,
  grep: always,
  egrep: always,
  fgrep: always,
  rg: forbidFlags('rg', {
    '--pre': 'runs a preprocessor command',
    '--hostname-bin': 'runs a command',
    '-z': 'runs decompressors',
    '--search-zip': 'runs decompressors',
  }),
  find: findValidator,
  git: gitValidator,
  sort: forbidFlags(
    'sort',
    { '-o': 'writes a file', '--output': 'writes a file', '--compress-program': 'runs a command' },
    {
      shortValues: 'ktST',
      longValues: ['--key', '--field-separator', '--buffer-size', '--temporary-directory'],
    },
  ),
  stat: always,
  du: always,
  df: always,
  file: forbidFlags(
    'file',
    {
      '-m': 'reads a magic file it is given',
      '--magic-file': 'reads a magic file it is given',
      '-f': 'reads names from a file',
      '--files-from': 'reads names from a file',
      '-C': 'compiles a magic file',
      '--compile': 'compiles a magic file',
    },
    { shortValues: 'eFP', longValues: ['--exclude', '--separator', '--parameter'] },
  ),
  echo: always,
  printf: forbidFlags('printf', { '-v': 'sets a shell variable for the commands after it' }),
  pwd: always,
  which: always,
  whoami: always,
  id: always,
  uname: always,
  // Showing only: `hostname NAME`, `-F FILE` and `--file=FILE` set the host name.
  hostname: (args) =>
    args.every((a) => HOSTNAME_SHOW.has(a)) ? null : '`hostname` with these arguments sets the host name',
  date: forbidFlags(
    'date',
    { '-s': 'sets the clock', '--set': 'sets the clock' },
    { shortValues: 'dfrI', longValues: ['--date', '--file', '--reference'] },
  ),
  true: always,
  false: always,
  basename: always,
  dirname: always,
  realpath: always,
  readlink: always,
  tree: forbidFlags(
    'tree',
    { '-o': 'writes a file', '-R': 'writes 00Tree.html files', '--fromfile': 'reads names from a file' },
    { shortValues: 'LPIHT' },
  ),
  cut: always,
  tr: always,
  uniq: uniqValidator,
  nl: always,
  rev: always,
  seq: always,
  tac: always,
  diff: forbidFlags('diff', { '--output': 'writes a file' }),
  cmp: always,
  comm: always,
  md5sum: always,
  sha1sum: always,
  sha256sum: always,
  jq: always,
  sed: sedValidator,
  awk: awkValidator,
  gawk: awkValidator,
  xargs: xargsValidator,
  sleep: always,
  test: always,
  '[': always,
  type: always,
  printenv: always,
  env: (args) => (args.length === 0 ? null : '`env` with arguments runs a command'),
  ps: always,
  pgrep: always,
  uptime: always,
  free: always,
  nproc: always,
  locale: always,
  column: always,
  fold: always,
  fmt: always,
  expr: always,
  od: always,
  hexdump: always,
  xxd: xxdValidator,
  strings: always,
  cd: always,
  command: (args) => (args[0] === '-v' || args[0] === '-V' ? null : '`command` runs another command'),
  less: () => 'pagers are interactive and can run commands',
  more: () => 'pagers are interactive and can run commands',
};

/** Why a simple command is not read-only, or null when it is. Commands not on the list are not. */
export function readOnlyReason(core: readonly (string | null)[]): string | null {
  const [name, ...args] = core;
  if (name === null || name === undefined) return 'the command name is computed at run time';
  if (args.some((a) => a === null)) return `an argument of \`${name}\` is computed at run time`;
  const validator = Object.hasOwn(READ_ONLY, name) ? READ_ONLY[name] : undefined;
  if (!validator) return `\`${name}\` is not a known read-only command`;
  return validator(args as string[]);
}

/**
 * Variables a read-only command may be given (`LC_ALL=C sort`): they change how output looks, never
 * what runs or which files are read. Anything else can (`RIPGREP_CONFIG_PATH` adds `--pre`, `HOME`
 * or `XDG_CONFIG_HOME` point git at a config that runs programs, `LESSOPEN` runs a filter).
 */
const HARMLESS_VARIABLES =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|LS_COLORS|GREP_COLOR|GREP_COLORS|TIME_STYLE|POSIXLY_CORRECT)$/;

/** Why one simple command, as it runs (its variables and wrappers too), is not read-only; null when it is. */
export function commandReadOnlyReason(
  c: Pick<SimpleCommand, 'core' | 'assignments' | 'wrappers'>,
): string | null {
  const name = typeof c.core[0] === 'string' ? c.core[0] : 'the command';
  const set = c.assignments.find((a) => !HARMLESS_VARIABLES.test(a.name));
  if (set) return `it sets \`${set.name}\` for \`${name}\`, which can change what it runs or reads`;
  // With its output on a terminal (Bash runs in one), nohup writes nohup.out.
  if (c.wrappers.includes('nohup')) return '`nohup` writes nohup.out';
  return readOnlyReason(c.core);
}
