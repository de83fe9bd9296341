import type { CommandAnalysis } from '../bash/analyze';
import type { SimpleCommand } from '../bash/extract';
import { commandReadOnlyReason } from '../bash/readonly';
import { spellHidden } from './visible-text';

/**
 * "Always allow" suggestions for Bash. A person tends to accept what is pre-filled, so the suggestion
 * must be the narrowest rule that covers the command: the exact command, or a prefix only where the
 * prefix is a bounded project verb (`npm run build *`, `npm test *`). A prefix of a destructive
 * command or an interpreter (`rm *`, `node *`, `bash *`, `sudo *`) would approve anything at all the
 * next time, so it is never suggested.
 */

/** Longest exact-command rule worth suggesting; a longer one is a script, not a habit. */
const MAX_EXACT_LENGTH = 300;

/**
 * Prefixes that name a bounded task of the project (build, test), by program: the subcommands
 * after which any arguments may follow. `run` takes the script name too. A verb is here only if no
 * argument after it can run another program or read an arbitrary file, since the prefix approves
 * every argument: not git (`fetch --upload-pack=CMD` runs it, `commit -F FILE`/`--template=FILE`
 * and `add --pathspec-from-file=FILE` read files), cargo (`--config build.rustc-wrapper=CMD`) or go
 * (`build -toolexec CMD`, `test -exec CMD`, `vet -vettool=CMD`): those get the exact command.
 */
const PREFIX_VERBS: Readonly<Record<string, readonly string[]>> = {
  npm: ['run', 'test'],
  pnpm: ['run', 'test'],
  yarn: ['run', 'test'],
  bun: ['run', 'test'],
};

/** Wrappers that change how a command runs, not what it runs; anything else (sudo, env, xargs) declines. */
const PLAIN_WRAPPERS = new Set(['time', 'nice', 'nohup', 'timeout', 'stdbuf', 'ionice']);

/** Interpreters and the flags that make them run code given on the command line. */
const INLINE_CODE: readonly { name: RegExp; flag: RegExp }[] = [
  { name: /^(node|nodejs|bun)$/, flag: /^(-e|-p|--eval|--print|-pe)$/ },
  { name: /^deno$/, flag: /^eval$/ },
  { name: /^(python|pypy)[\d.]*$/, flag: /^-[A-Za-z]*c$/ },
  { name: /^(ba|da|z|k|fi|c|tc)?sh$/, flag: /^-[A-Za-z]*c[A-Za-z]*$/ },
  { name: /^(perl|ruby)$/, flag: /^-[A-Za-z]*[eE]$/ },
  { name: /^php$/, flag: /^-r$/ },
  { name: /^(osascript|pwsh|powershell)$/, flag: /^-(c|e|command)$/i },
];

/** Commands that destroy what they are pointed at. */
const DESTRUCTIVE = /^(rm|rmdir|shred|unlink|dd|mkfs(\..+)?|chmod|chown|chgrp|truncate|mv|find)$/;

/** Where no always-rule to destroy makes sense: the root, a top-level folder, home, `.` and `..`. */
function sweepingTarget(word: string): boolean {
  const w = word.replace(/^[a-z]+=/, ''); // dd's of=/dev/sda
  if (w === '.' || w === '..' || w === '~' || w.startsWith('~/') || /(^|\/)\.\.(\/|$)/.test(w)) return true;
  return w.startsWith('/') && w.replace(/\/+$/, '').split('/').length <= 2;
}

/**
 * A word a rule can spell so that it matches only itself. A rule matches the command's words joined
 * by spaces, with `*` as a wildcard: a word holding a space, a `*` or nothing at all would make an
 * "exact" rule match some other command too.
 */
function spellable(word: string): boolean {
  return word !== '' && !/[\s*]/.test(word) && !/\p{Cc}/u.test(word);
}

/** Why no rule is suggested for this simple command, or null when one might be. */
function declineReason(c: SimpleCommand): string | null {
  if (c.nested) return 'runs inside a substitution, subshell or control structure';
  if (c.glob) return 'has an unquoted glob';
  if (c.assignments.length > 0) return 'sets variables for the command';
  if (c.wrappers.some((w) => !PLAIN_WRAPPERS.has(w))) return `runs through ${c.wrappers.join(' ')}`;
  if (c.redirects.some((r) => r.target === null && r.op !== '<<')) return 'redirects to a computed target';
  if (c.core.length === 0) return 'has no command';
  if (c.core.some((w) => w === null)) return 'has a word computed at run time';
  const [name, ...args] = c.core as string[];
  const inline = INLINE_CODE.find((i) => i.name.test(name ?? ''));
  if (inline && args.some((a) => inline.flag.test(a))) return 'runs code given inline';
  if (DESTRUCTIVE.test(name ?? '') && args.some(sweepingTarget)) return 'destroys a sweeping target';
  return null;
}

/** The rule for one simple command that is not read-only, or null when none is safe to suggest. */
export function suggestBashRule(c: SimpleCommand): string | null {
  if (declineReason(c) !== null) return null;
  const words = c.core as string[];
  const [name, sub, third] = words;
  const verbs = name !== undefined ? PREFIX_VERBS[name] : undefined;
  if (verbs && sub !== undefined && verbs.includes(sub)) {
    if (sub !== 'run') return `Bash(${name} ${sub} *)`;
    if (third !== undefined && /^[\w:.-]+$/.test(third) && !third.startsWith('-'))
      return `Bash(${name} run ${third} *)`;
  }
  if (!words.every(spellable)) return null;
  const exact = words.join(' ');
  return exact.length <= MAX_EXACT_LENGTH ? `Bash(${exact})` : null;
}

/**
 * The rules "Always allow" would write for a command that asked: one per part that is not read-only.
 * Nothing when the analysis found an injection pattern, did not understand the command, or the text
 * substitutes or expands anything (`$(…)`, backticks, `$VAR`, `<(…)`): a rule cannot describe what
 * such a command will run. Nothing either when any part cannot get a safe rule, since "Always allow"
 * would then not do what it says.
 */
export function suggestBashRules(analysis: CommandAnalysis): string[] {
  if (!analysis.parsed || analysis.findings.length > 0 || analysis.commands.length === 0) return [];
  if (/[$`]|[<>]\(/.test(analysis.command)) return [];
  // A rule with a hidden character would read differently in the editor than it matches.
  if (spellHidden(analysis.command) !== analysis.command) return [];
  const rules: string[] = [];
  for (const c of analysis.commands) {
    if (commandReadOnlyReason(c) === null && declineReason(c) === null) continue;
    const rule = suggestBashRule(c);
    if (rule === null) return [];
    if (!rules.includes(rule)) rules.push(rule);
  }
  return rules.length <= 5 ? rules : [];
}
