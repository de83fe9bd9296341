import { execFile } from 'node:child_process';
import { devNull } from 'node:os';
import { absolutePathEntries } from '../../platform/env';

/**
 * The git part of the system prompt's environment: the branch and `git status --short`, taken once
 * when a session starts (as Claude Code does) so the prompt, the cached prefix, stays byte-identical
 * from turn to turn.
 *
 * A project folder is untrusted: its `.git/config` can make a plain `git status` run programs
 * (`core.fsmonitor` is a hook git runs on every status; a `filter.<driver>.clean` runs when a file's
 * stat data changed and its content is re-hashed; `status.submoduleSummary` starts more git). So git
 * runs with those switched off on the command line (`-c` beats every config file), without the system
 * config, a pager, a prompt or an askpass, without touching the index (no optional locks), with a
 * short timeout, and with no shell.
 */

/** Characters of `git status --short` kept; the rest is cut with a note. */
export const GIT_STATUS_LIMIT = 2000;
/** Both git calls together get this long; one still running then is killed, and there are no git lines. */
export const GIT_TIMEOUT_MS = 2000;

export interface GitSnapshot {
  /** The branch, or null when HEAD is detached. */
  branch: string | null;
  /** `git status --short` without the branch line, cut at GIT_STATUS_LIMIT with a note. */
  status: string;
}

/** Settings that would make a status run something, neutralised whatever the repository says. */
export const FIXED_OVERRIDES = [
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'status.submoduleSummary=false',
  `core.attributesFile=${devNull}`,
  'core.pager=cat',
  'diff.external=',
  'color.ui=false',
];

/** The environment git runs in: only what it needs, nothing that redirects it or asks anyone. */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    LC_ALL: 'C',
  };
  // HOME for the person's own ~/.gitconfig (theirs, not the repository's). No GIT_DIR,
  // GIT_WORK_TREE, GIT_CONFIG_* or GIT_EXEC_PATH from the app's environment.
  for (const key of ['HOME', 'SystemRoot', 'USERPROFILE']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  // PATH to find git, absolute folders only: git runs in the project, where a relative entry (`.`,
  // an empty one) would find a `git` the repository ships.
  env['PATH'] = absolutePathEntries(process.env['PATH'] ?? '');
  return env;
}

function git(
  cwd: string,
  args: string[],
  deadline: number,
): Promise<{ code: number | null; stdout: string }> {
  const timeout = deadline - Date.now();
  if (timeout <= 0) return Promise.resolve({ code: null, stdout: '' });
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        env: gitEnv(),
        timeout,
        killSignal: 'SIGKILL',
        maxBuffer: 4 * 1024 * 1024,
        windowsHide: true,
        encoding: 'utf8',
      },
      (error, stdout) => {
        if (!error) return resolve({ code: 0, stdout });
        const code = typeof error.code === 'number' ? error.code : null;
        // Too much output: what arrived is the start of it, which is all the prompt keeps anyway.
        if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return resolve({ code: 0, stdout });
        resolve({ code, stdout: '' });
      },
    );
  });
}

/**
 * `-c` overrides that empty every driver of the given kinds that `git config --null --get-regexp
 * '^(filter|merge)\.'` printed: a filter driver named in the repository's attributes would run its
 * `clean` command while status re-hashes a file (its `smudge` on checkout), a merge driver its
 * command on merge. Null when a driver's name cannot be overridden on the command line (it holds `=`
 * or a newline): then git is not to be run at all.
 */
export function driverOverrides(
  configOutput: string,
  kinds: ReadonlyArray<'filter' | 'merge'>,
): string[] | null {
  const out = new Set<string>();
  for (const entry of configOutput.split('\0')) {
    const key = entry.split('\n', 1)[0] ?? '';
    const m = /^(filter|merge)\.(.+)\.[^.]+$/s.exec(key);
    const kind = m?.[1] as 'filter' | 'merge' | undefined;
    const name = m?.[2];
    if (kind === undefined || name === undefined || !kinds.includes(kind)) continue;
    if (/[=\n\r\0]/.test(name)) return null;
    if (kind === 'filter')
      for (const k of ['clean=', 'smudge=', 'process=', 'required=false']) out.add(`filter.${name}.${k}`);
    else out.add(`merge.${name}.driver=`);
  }
  return [...out];
}

/** The filter-driver overrides for `dir`'s repository (see driverOverrides); null: do not run git. */
async function filterOverrides(cwd: string, deadline: number): Promise<string[] | null> {
  const r = await git(cwd, ['config', '--null', '--get-regexp', '^filter\\.'], deadline);
  // 1: no such key (the usual case); anything but 0 and 1 is a config git cannot read.
  if (r.code === 1) return [];
  if (r.code !== 0) return null;
  return driverOverrides(r.stdout, ['filter']);
}

/** The branch from `status --branch`'s first line (`## main...origin/main [ahead 1]`). */
export function parseBranchLine(line: string): string | null {
  let rest = line.replace(/^## /, '');
  rest = rest.replace(/^No commits yet on /, '').replace(/^Initial commit on /, '');
  if (rest.startsWith('HEAD (no branch)')) return null;
  const dots = rest.indexOf('...');
  const name = dots >= 0 ? rest.slice(0, dots) : (rest.split(' ')[0] ?? '');
  return name === '' ? null : name;
}

/** Cuts the status to the limit, at a line end, and says how much was left out. */
export function truncateStatus(status: string, limit = GIT_STATUS_LIMIT): string {
  if (status.length <= limit) return status;
  const cut = status.lastIndexOf('\n', limit);
  const kept = status.slice(0, cut > 0 ? cut : limit);
  const more = status
    .slice(kept.length)
    .split('\n')
    .filter((l) => l !== '').length;
  return `${kept}\n… (status cut at ${limit.toLocaleString('en-US')} characters: ${more} more line${more === 1 ? '' : 's'}; run git status for the rest)`;
}

/**
 * The branch and short status of the repository `dir` is in, or null: not in a repository, git
 * missing or too slow, or a repository that could not be read safely.
 */
export async function takeGitSnapshot(dir: string, timeoutMs = GIT_TIMEOUT_MS): Promise<GitSnapshot | null> {
  const deadline = Date.now() + timeoutMs;
  const filters = await filterOverrides(dir, deadline);
  if (filters === null) return null;
  const config = [...FIXED_OVERRIDES, ...filters].flatMap((c) => ['-c', c]);
  const r = await git(
    dir,
    [
      '--no-pager',
      '--no-optional-locks',
      ...config,
      'status',
      '--short',
      '--branch',
      '--ignore-submodules=all',
    ],
    deadline,
  );
  if (r.code !== 0) return null;
  const lines = r.stdout.split('\n');
  const first = lines[0] ?? '';
  if (!first.startsWith('## ')) return null;
  const status = lines.slice(1).join('\n').replace(/\n+$/, '');
  return { branch: parseBranchLine(first), status: truncateStatus(status) };
}

/** The snapshot as the system prompt's section (Claude Code's wording, branch and status only). */
export function renderGitSnapshot(g: GitSnapshot): string {
  return [
    'gitStatus: This is the git status at the start of the conversation. Note that this status is a snapshot in time, and will not update during the conversation.',
    `Current branch: ${g.branch ?? '(detached HEAD)'}`,
    '',
    'Status:',
    g.status === '' ? '(clean)' : g.status,
  ].join('\n');
}
