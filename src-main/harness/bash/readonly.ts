/**
 * The flag-level read-only allowlist: for each command known to only read, the flags that would make
 * it write or run something. A validator returns null when the call is read-only, else the reason a
 * person can read ("`find -exec` runs a command").
 */
type Validator = (args: readonly string[]) => string | null;

const always: Validator = () => null;

/** Any of these flags (exact, or as `--flag=…`) disqualifies; short flags may be bundled (`-xi`). */
function forbidFlags(cmd: string, flags: Record<string, string>): Validator {
  return (args) => {
    for (const a of args) {
      const bare = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
      if (flags[bare]) return `\`${cmd} ${bare}\` ${flags[bare]}`;
      if (/^-[a-zA-Z]{2,}$/.test(a)) {
        for (const ch of a.slice(1)) if (flags[`-${ch}`]) return `\`${cmd} -${ch}\` ${flags[`-${ch}`] ?? ''}`;
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
  if (sub === 'stash')
    return rest[0] === 'list' || rest[0] === 'show' ? null : '`git stash` changes the working tree';
  if (sub === 'tag')
    return rest.length === 0 || rest.every((a) => a === '-l' || a === '--list' || a.startsWith('-n'))
      ? null
      : '`git tag` with arguments creates or deletes tags';
  if (sub === 'config')
    return rest.some((a) => a === '--get' || a === '--get-all' || a === '--list' || a === '-l') &&
      !rest.some((a) => a === '--add' || a === '--unset' || a === '--replace-all')
      ? null
      : '`git config` can change configuration';
  if (!GIT_READ.has(sub)) return `\`git ${sub}\` is not a read-only git command`;
  for (const a of rest) {
    if (a === '--output' || a.startsWith('--output=') || a === '-o')
      return `\`git ${sub} --output\` writes a file`;
    if (a === '--ext-diff' || a.startsWith('--textconv') || a.startsWith('--exec'))
      return `\`git ${sub} ${a}\` runs external programs`;
    if (a === '--paginate' || (a === '-p' && sub === 'grep')) return `\`git ${sub} ${a}\` starts a pager`;
    if (a.startsWith('--open-files-in-pager') || a === '-O') return `\`git ${sub} ${a}\` opens a pager`;
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

const sedValidator: Validator = (args) => {
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '-i' || /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))
      return '`sed -i` edits files in place';
    if (a === '-f' || a.startsWith('--file')) return '`sed -f` runs a script from a file';
    if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? '');
    else if (a.startsWith('--expression=')) scripts.push(a.slice('--expression='.length));
  }
  if (scripts.length === 0) {
    const first = args.find((a) => !a.startsWith('-'));
    if (first !== undefined) scripts.push(first);
  }
  for (const script of scripts)
    if (/[wWe]/.test(sedCommands(script)))
      return 'the sed script writes a file or runs a command (w, W or e)';
  return null;
};

const awkValidator: Validator = (args) => {
  if (args.some((a) => a === '-f' || a.startsWith('--file'))) return '`awk -f` runs a program from a file';
  const program = (args.find((a) => !a.startsWith('-')) ?? '').replace(/\|\|/g, ' ');
  if (/system\s*\(/.test(program)) return '`awk system()` runs a command';
  if (program.includes('|')) return 'awk pipes to or from a command';
  if (/printf?\b[^;}]*>/.test(program)) return 'awk writes a file';
  return null;
};

const xargsValidator: Validator = (args) =>
  args.some((a) => !a.startsWith('-')) ? '`xargs` runs a command' : null;

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
  sort: forbidFlags('sort', {
    '-o': 'writes a file',
    '--output': 'writes a file',
    '--compress-program': 'runs a command',
  }),
  stat: always,
  du: always,
  df: always,
  file: forbidFlags('file', {
    '-m': 'reads a magic file it is given',
    '-f': 'reads names from a file',
    '-C': 'compiles a magic file',
  }),
  echo: always,
  printf: always,
  pwd: always,
  which: always,
  whoami: always,
  id: always,
  uname: always,
  hostname: (args) =>
    args.length === 0 || args.every((a) => a.startsWith('-')) ? null : '`hostname NAME` sets the host name',
  date: (args) => (args.some((a) => a === '-s' || a.startsWith('--set')) ? '`date -s` sets the clock' : null),
  true: always,
  false: always,
  basename: always,
  dirname: always,
  realpath: always,
  readlink: always,
  tree: forbidFlags('tree', { '-o': 'writes a file' }),
  cut: always,
  tr: always,
  uniq: (args) => (args.filter((a) => !a.startsWith('-')).length > 1 ? '`uniq IN OUT` writes a file' : null),
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
  xxd: forbidFlags('xxd', { '-r': 'writes binary output' }),
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
