import type { Extraction, SimpleCommand } from './extract';
import { namesLong } from './options';

/** What an injection check sees: the raw text and the parse. */
export interface CheckContext {
  source: string;
  x: Extraction;
}

/**
 * One named check. Each looks for one way a command can do more than it seems to (or hide what it
 * does); a command that trips any of them is never auto-allowed, and the reason says why.
 */
export interface InjectionCheck {
  id: string;
  title: string;
  check(ctx: CheckContext): string | null;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'busybox', 'ash']);
const ZSH_DANGEROUS = new Set([
  'zmodload',
  'emulate',
  'sysopen',
  'sysread',
  'syswrite',
  'sysseek',
  'zpty',
  'ztcp',
  'zsocket',
  'zf_rm',
  'zf_mv',
  'zf_ln',
  'zf_chmod',
  'zf_chown',
  'zf_mkdir',
  'zcompile',
  'autoload',
]);
const DANGEROUS_VARS =
  /^(LD_\w+|DYLD_\w+|PATH|BASH_ENV|ENV|PROMPT_COMMAND|IFS|PS4|SHELLOPTS|BASHOPTS|GIT_\w+|PAGER|EDITOR|VISUAL|PYTHONPATH|NODE_OPTIONS|PERL5OPT|RUBYOPT)$/;
/** Wrappers that cannot be auto-approved (timeout, nice, nohup, stdbuf and time are peeled off and the inner command judged). */
const EXEC_WRAPPERS = new Set([
  'sudo',
  'doas',
  'watch',
  'setsid',
  'ionice',
  'flock',
  'xargs',
  'chroot',
  'unshare',
  'nsenter',
  'runuser',
  'su',
]);

/**
 * git options whose value is a program git runs, as an allow rule cannot see: `fetch/pull/clone/
 * ls-remote --upload-pack=CMD`, `push --receive-pack=CMD` (`--exec` the same), `archive --exec`,
 * `rebase --exec`, and `--exec-path=DIR` (git runs its subcommands from there). git takes any
 * unambiguous abbreviation of a long option (`--upl`), so every prefix counts.
 */
const GIT_PROGRAM_OPTIONS = ['--upload-pack', '--receive-pack', '--exec'];
/** git global options that take the next word as their value. */
const GIT_GLOBAL_VALUES = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env']);

function gitProgramOption(c: SimpleCommand): string | null {
  const [name, ...args] = c.core;
  if (name !== 'git') return null;
  let sub: string | null | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a !== 'string') continue;
    if (a === '--') break;
    if (sub === undefined && !a.startsWith('-')) {
      sub = a;
      continue;
    }
    if (sub === undefined && GIT_GLOBAL_VALUES.has(a)) i++;
    const flag = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (flag.startsWith('--') && GIT_PROGRAM_OPTIONS.some((o) => namesLong(flag, o))) return a;
    if (flag.startsWith('--exec-path') && a.includes('=')) return a;
    if (sub === undefined && a === '--exec-path' && i + 1 < args.length) return a;
    // `clone -u CMD` and `ls-remote -u CMD` are `--upload-pack` (`fetch -u` and `push -u` are not).
    if ((sub === 'clone' || sub === 'ls-remote') && /^-[^-]*u/.test(a)) return a;
  }
  return null;
}

const names = (x: Extraction) =>
  x.commands.map((c) => c.core[0]).filter((n): n is string => typeof n === 'string');
const firstCommand = (x: Extraction, test: (c: SimpleCommand) => boolean) => x.commands.find(test);
const specialOf = (x: Extraction, type: string) => x.special.filter((s) => s.type === type);

export const INJECTION_CHECKS: readonly InjectionCheck[] = [
  {
    id: 'unparseable',
    title: 'Unbalanced quoting or syntax errors',
    check: ({ x }) =>
      x.hasError ? 'the command does not parse cleanly (unbalanced quotes or brackets)' : null,
  },
  {
    id: 'too-long',
    title: 'Commands over 10,000 characters',
    check: ({ source }) =>
      source.length > 10_000 ? `the command is ${source.length} characters long` : null,
  },
  {
    id: 'command-substitution',
    title: 'Command substitution $(…)',
    check: ({ x }) =>
      specialOf(x, 'command_substitution').some((s) => s.text.startsWith('$('))
        ? 'it runs a command substitution `$(…)`'
        : null,
  },
  {
    id: 'backticks',
    title: 'Backtick substitution',
    check: ({ x }) =>
      specialOf(x, 'command_substitution').some((s) => s.text.startsWith('`'))
        ? 'it runs a backtick substitution'
        : null,
  },
  {
    id: 'process-substitution',
    title: 'Process substitution <(…) and >(…)',
    check: ({ x }) =>
      specialOf(x, 'process_substitution').length > 0 ? 'it runs a process substitution `<(…)`/`>(…)`' : null,
  },
  {
    id: 'eval',
    title: 'eval',
    check: ({ x }) => (names(x).includes('eval') ? '`eval` runs a string as a command' : null),
  },
  {
    id: 'exec',
    title: 'exec',
    check: ({ x }) => (names(x).includes('exec') ? '`exec` replaces the shell with another program' : null),
  },
  {
    id: 'source',
    title: 'source and .',
    check: ({ x }) =>
      names(x).some((n) => n === 'source' || n === '.') ? '`source` runs a script in the shell' : null,
  },
  {
    id: 'shell-c',
    title: 'A shell running a script string (sh -c, bash -c, …)',
    check: ({ x }) => {
      const c = firstCommand(
        x,
        (cmd) => typeof cmd.core[0] === 'string' && SHELLS.has(cmd.core[0].split('/').pop() ?? ''),
      );
      return c ? `\`${c.core[0] ?? ''}\` runs a shell script the analysis cannot see into` : null;
    },
  },
  {
    id: 'here-string',
    title: 'Here-strings feeding commands',
    check: ({ x }) =>
      specialOf(x, 'herestring_redirect').length > 0 ? 'a here-string `<<<` feeds a command' : null,
  },
  {
    id: 'heredoc-expansion',
    title: 'Expansions inside here-documents',
    check: ({ x }) =>
      specialOf(x, 'heredoc_body').some((s) => /\$|`/.test(s.text))
        ? 'a here-document expands `$…` or backticks'
        : null,
  },
  {
    id: 'ifs',
    title: '$IFS tricks',
    check: ({ source }) => (/\$\{?IFS\b/.test(source) ? 'it uses `$IFS` to split words' : null),
  },
  {
    id: 'ansi-c-quoting',
    title: "ANSI-C quoting $'…'",
    check: ({ x }) =>
      specialOf(x, 'ansi_c_string').length > 0
        ? "it uses ANSI-C quoting `$'…'`, which can hide characters"
        : null,
  },
  {
    id: 'locale-quoting',
    title: 'Locale quoting $"…"',
    check: ({ source, x }) =>
      x.nodeTypes.has('translated_string') || /(^|[^\\])\$"/.test(source)
        ? 'it uses locale quoting `$"…"`'
        : null,
  },
  {
    id: 'brace-expansion',
    title: 'Brace expansion {a,b} and {1..9}',
    check: ({ x }) =>
      x.nodeTypes.has('brace_expression') ||
      [...specialOf(x, 'word'), ...specialOf(x, 'concatenation')].some((s) =>
        /(^|[^\\$])\{[^{}'"\s]*(,|\.\.)[^{}'"\s]*\}/.test(s.text),
      )
        ? 'it uses brace expansion, which turns one word into several'
        : null,
  },
  {
    id: 'newline',
    title: 'Newlines separating commands',
    check: ({ source, x }) =>
      source.includes('\n') && !x.nodeTypes.has('heredoc_body')
        ? 'it spans several lines (each line is a command)'
        : null,
  },
  {
    id: 'carriage-return',
    title: 'Carriage returns',
    check: ({ source }) =>
      source.includes('\r') ? 'it contains a carriage return, which can hide text on screen' : null,
  },
  {
    id: 'control-characters',
    title: 'Control characters',
    check: ({ source }) =>
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(source) ? 'it contains control characters' : null,
  },
  {
    id: 'unicode-whitespace',
    title: 'Unicode whitespace',
    check: ({ source }) =>
      /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(source)
        ? 'it contains Unicode whitespace that looks like a space but is not one'
        : null,
  },
  {
    id: 'look-alikes',
    title: 'Look-alike and invisible characters',
    check: ({ source, x }) => {
      if (/[\u200b-\u200d\u2060\u00ad\u180e]/.test(source)) return 'it contains invisible characters';
      const odd = names(x).find((n) => /[^\x20-\x7e]/.test(n));
      return odd ? `the command name \`${odd}\` contains non-ASCII look-alike characters` : null;
    },
  },
  {
    id: 'zsh-builtins',
    title: 'zsh-dangerous builtins (zmodload, emulate, …)',
    check: ({ x }) => {
      const n = names(x).find((name) => ZSH_DANGEROUS.has(name));
      return n ? `\`${n}\` is a zsh builtin that can load modules or open files and sockets` : null;
    },
  },
  {
    id: 'zsh-equals-expansion',
    title: 'zsh =cmd expansion',
    check: ({ x }) =>
      specialOf(x, 'word').some((s) => /^=[A-Za-z_]/.test(s.text))
        ? 'a word starting with `=` expands to a program path in zsh'
        : null,
  },
  {
    id: 'redirect-write',
    title: 'Output redirections to files',
    check: ({ x }) => {
      const r = x.redirects.find((red) => /^(>|>>|>\||&>|&>>)$/.test(red.op) && red.target !== '/dev/null');
      return r
        ? `it writes to ${r.target === null ? 'a computed path' : `\`${r.target}\``} with \`${r.op}\``
        : null;
    },
  },
  {
    id: 'redirect-fd',
    title: 'Redirections to unusual file descriptors',
    check: ({ x }) => {
      const r = x.redirects.find(
        (red) => (red.op === '>&' || red.op === '<&') && red.target !== null && !/^[0-2-]$/.test(red.target),
      );
      return r ? `it redirects to \`${r.op}${r.target ?? ''}\`` : null;
    },
  },
  {
    id: 'env-wrapper',
    title: 'env running another command',
    check: ({ x }) =>
      x.commands.some((c) => c.wrappers.includes('env'))
        ? '`env` runs another command with a changed environment'
        : null,
  },
  {
    id: 'command-builtin-wrapper',
    title: 'command and builtin wrappers',
    check: ({ x }) => {
      const c = x.commands.find(
        (cmd) => cmd.wrappers.includes('command') || cmd.wrappers.includes('builtin'),
      );
      return c
        ? `\`${c.wrappers.includes('command') ? 'command' : 'builtin'}\` runs another command past aliases and functions`
        : null;
    },
  },
  {
    id: 'exec-wrappers',
    title: 'Programs that run their arguments (sudo, xargs, timeout, watch, …)',
    check: ({ x }) => {
      const w = x.commands.flatMap((c) => c.wrappers).find((name) => EXEC_WRAPPERS.has(name));
      return w ? `\`${w}\` runs its arguments as a command` : null;
    },
  },
  {
    id: 'comment',
    title: 'Comments that can hide text',
    check: ({ x }) =>
      specialOf(x, 'comment').length > 0
        ? 'it contains a comment, which can hide text from a quick read'
        : null,
  },
  {
    id: 'dynamic-command-name',
    title: 'Command names computed at run time',
    check: ({ x }) =>
      x.commands.some((c) => c.core.length > 0 && c.core[0] === null)
        ? 'the name of a command is computed at run time'
        : null,
  },
  {
    id: 'quoted-command-name',
    title: 'Quoted or escaped command names (r\'\'m, "rm", \\rm)',
    check: ({ x }) => {
      const raw = specialOf(x, 'command_name').find((s) => /['"\\]/.test(s.text));
      return raw
        ? `the command name \`${raw.text}\` is quoted or escaped (it runs as \`${raw.text.replace(/['"\\]/g, '')}\`)`
        : null;
    },
  },
  {
    id: 'parameter-expansion',
    title: 'Variable expansions $VAR and ${…}',
    check: ({ x }) => {
      const e = [...specialOf(x, 'simple_expansion'), ...specialOf(x, 'expansion')][0];
      return e ? `it expands \`${e.text}\`, whose value is unknown until it runs` : null;
    },
  },
  {
    id: 'arithmetic-expansion',
    title: 'Arithmetic expansion $((…))',
    check: ({ x }) =>
      specialOf(x, 'arithmetic_expansion').length > 0
        ? 'it uses arithmetic expansion, which can run code through array subscripts'
        : null,
  },
  {
    id: 'background',
    title: 'Background jobs (&)',
    check: ({ x }) => (x.background ? 'it starts a background job with `&`' : null),
  },
  {
    id: 'function-definition',
    title: 'Function definitions',
    check: ({ x }) =>
      specialOf(x, 'function_definition').length > 0
        ? 'it defines a shell function, which can shadow a command'
        : null,
  },
  {
    id: 'unsupported-syntax',
    title: 'Control flow, subshells and groups',
    check: ({ x }) => {
      const kinds = [...x.unsupported].filter(
        (k) =>
          ![
            'command_substitution',
            'process_substitution',
            'ansi_c_string',
            'translated_string',
            'simple_expansion',
            'expansion',
            'arithmetic_expansion',
            'herestring_redirect',
            'function_definition',
            'brace_expression',
            'ERROR',
          ].includes(k),
      );
      return kinds.length > 0
        ? `it uses shell syntax the analysis does not judge (${kinds.slice(0, 3).join(', ')})`
        : null;
    },
  },
  {
    id: 'dangerous-assignment',
    title: 'Assignments to variables that change what runs (LD_PRELOAD, PATH, …)',
    check: ({ x }) => {
      const a = x.commands.flatMap((c) => c.assignments).find((v) => DANGEROUS_VARS.test(v.name));
      return a ? `it sets \`${a.name}\`, which changes what programs run` : null;
    },
  },
  {
    id: 'bare-assignment',
    title: 'Bare variable assignments',
    check: ({ x }) => (x.bareAssignments > 0 ? 'it sets shell variables for the commands after it' : null),
  },
  {
    id: 'git-program-option',
    title: 'git options that run a program (--upload-pack, --receive-pack, --exec)',
    check: ({ x }) => {
      for (const c of x.commands) {
        const a = gitProgramOption(c);
        if (a !== null) return `\`git ${a}\` runs a program given on the command line`;
      }
      return null;
    },
  },
  {
    id: 'glob-command-name',
    title: 'Globs in command names',
    check: ({ x }) =>
      names(x).some((n) => /[*?[]/.test(n)) ? 'a command name is a glob the shell expands' : null,
  },
];

export interface Finding {
  id: string;
  reason: string;
}

export function runInjectionChecks(ctx: CheckContext): Finding[] {
  const out: Finding[] = [];
  for (const c of INJECTION_CHECKS) {
    const reason = c.check(ctx);
    if (reason !== null) out.push({ id: c.id, reason });
  }
  return out;
}
