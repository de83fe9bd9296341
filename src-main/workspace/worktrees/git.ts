import { execFile } from 'node:child_process';
import { devNull } from 'node:os';
import { driverOverrides, FIXED_OVERRIDES, gitEnv } from '../../harness/context/git-status';
import { FALLBACK_IDENTITY, type GitResult, firstLine, GitError, stdoutOrThrow } from '../git-commands';

export { firstLine, GitError, type GitResult } from '../git-commands';

/**
 * git for worktrees, hardened as the prompt's git snapshot is (harness/context/git-status.ts): no
 * shell, no system config, no pager, prompt or askpass, absolute PATH only. On top of that, because
 * these commands check files out, merge and fetch, a repository's own config must not run anything:
 * hooks go to /dev/null (a post-checkout hook would run on `worktree add`), every filter and merge
 * driver the config names is emptied, and fetch uses plain ssh and never the `ext::` transport.
 */

const TIMEOUT_MS = 60_000;

/** Overrides that hold for every command, whatever the repository's config says. */
const BASE_OVERRIDES = [
  ...FIXED_OVERRIDES,
  `core.hooksPath=${devNull}`,
  'core.sshCommand=ssh',
  'protocol.ext.allow=never',
  'merge.renormalize=false',
  'submodule.recurse=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
];

function exec(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        env,
        timeout: TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
        windowsHide: true,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        resolve({ code: typeof error.code === 'number' ? error.code : null, stdout, stderr });
      },
    );
  });
}

/**
 * `-c` overrides emptying every filter and merge driver any config file defines (a driver named in
 * the repository's `.gitattributes` would run its command on checkout or merge). Throws when a
 * driver's name cannot be overridden on the command line: then git is not run at all.
 */
async function repoDriverOverrides(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const r = await exec(cwd, ['config', '--null', '--get-regexp', '^(filter|merge)\\.'], env);
  if (r.code === 1) return [];
  if (r.code !== 0) throw new GitError(`git cannot read this repository's config: ${firstLine(r.stderr)}`);
  const out = driverOverrides(r.stdout, ['filter', 'merge']);
  if (out === null)
    throw new GitError('This repository names a filter or merge driver git cannot be told to skip.');
  return out;
}

/** Runs git in `cwd` with the hardening above; never throws for a non-zero exit (see `code`). */
export async function git(cwd: string, args: string[], o: { identity?: boolean } = {}): Promise<GitResult> {
  let env = gitEnv();
  // The prompt's snapshot only reads; these commands may write the index.
  delete env['GIT_OPTIONAL_LOCKS'];
  if (o.identity === true) {
    const ident = await exec(cwd, ['var', 'GIT_COMMITTER_IDENT'], env);
    if (ident.code !== 0) env = { ...env, ...FALLBACK_IDENTITY };
  }
  const drivers = await repoDriverOverrides(cwd, env);
  const config = [...BASE_OVERRIDES, ...drivers].flatMap((c) => ['-c', c]);
  return exec(cwd, ['--no-pager', ...config, ...args], env);
}

/** Runs git and returns stdout, or throws a GitError with git's own first line of complaint. */
export async function gitOk(
  cwd: string,
  args: string[],
  what: string,
  o: { identity?: boolean } = {},
): Promise<string> {
  return stdoutOrThrow(await git(cwd, args, o), what);
}
