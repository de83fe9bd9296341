import { spawn } from 'node:child_process';
import { devNull } from 'node:os';
import { driverOverrides, FIXED_OVERRIDES, gitEnv } from '../../harness/context/git-status';
import { FALLBACK_IDENTITY, type GitResult, GitError, stdoutOrThrow } from '../git-commands';

export { firstLine, GitError, type GitResult } from '../git-commands';

/**
 * git for the Changes view, hardened as the prompt's git snapshot is (harness/context/git-status.ts)
 * and the worktree helpers are: a project folder is untrusted, and `git diff`, `apply`, `add` and
 * `commit` would otherwise run what its config names (an external diff, a textconv, filter drivers
 * on add, hooks on commit, an fsmonitor on every call). So: no shell, no system config, no pager,
 * prompt or askpass, absolute PATH entries only, hooks to /dev/null, every filter driver emptied,
 * pathspecs taken literally (a file named `*` or `:(glob)x` is that file).
 */

const TIMEOUT_MS = 30_000;
/** A 10,000-line diff is well under this; past it the output is cut (see `truncated`). */
const MAX_OUTPUT = 32 * 1024 * 1024;

/** On top of the prompt snapshot's overrides: no hooks, and diff output in the one shape parsed here. */
const OVERRIDES = [
  ...FIXED_OVERRIDES,
  `core.hooksPath=${devNull}`,
  'core.quotePath=false',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'commit.gpgSign=false',
  'log.showSignature=false',
];

/** The snapshot's environment, except that these commands may write the index; pathspecs are literal. */
function changesEnv(): NodeJS.ProcessEnv {
  const env = gitEnv();
  delete env['GIT_OPTIONAL_LOCKS'];
  env['GIT_LITERAL_PATHSPECS'] = '1';
  return env;
}

function exec(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<GitResult & { cut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd, env, windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let cut = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.stdout.on('data', (b: Buffer) => {
      if (cut) return;
      size += b.length;
      if (size > MAX_OUTPUT) {
        cut = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < 64) err.push(b);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout: '', stderr: e.message, cut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code: cut ? 0 : code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        cut,
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** `-c` overrides emptying every filter driver the config names; null when one cannot be overridden. */
async function filterOverrides(cwd: string, env: NodeJS.ProcessEnv): Promise<string[] | null> {
  const r = await exec(cwd, ['config', '--null', '--get-regexp', '^filter\\.'], env);
  if (r.code === 1) return [];
  if (r.code !== 0) return null;
  return driverOverrides(r.stdout, ['filter']);
}

export interface GitOptions {
  /** Written to git's stdin (a patch, a commit message). */
  input?: string;
  /** Make sure a commit has an author. */
  identity?: boolean;
  /** Read-only calls leave the index alone (no refresh written). */
  readOnly?: boolean;
  /** Another index file to read (GIT_INDEX_FILE): a copy without hiding bits (changes-service.ts). */
  indexFile?: string;
}

/** Runs git in `cwd` hardened as above; never throws for a non-zero exit. `cut`: output was cut. */
export async function git(
  cwd: string,
  args: string[],
  o: GitOptions = {},
): Promise<GitResult & { cut: boolean }> {
  let env = changesEnv();
  if (o.readOnly === true) env['GIT_OPTIONAL_LOCKS'] = '0';
  if (o.indexFile !== undefined) env['GIT_INDEX_FILE'] = o.indexFile;
  if (o.identity === true) {
    const ident = await exec(cwd, ['var', 'GIT_COMMITTER_IDENT'], env);
    if (ident.code !== 0) env = { ...env, ...FALLBACK_IDENTITY };
  }
  const drivers = await filterOverrides(cwd, env);
  if (drivers === null)
    throw new GitError(
      'This repository names a filter driver git cannot be told to skip; Carapace does not run git here.',
    );
  const config = [...OVERRIDES, ...drivers].flatMap((c) => ['-c', c]);
  return exec(cwd, ['--no-pager', ...config, ...args], env, o.input);
}

/** Runs git and returns stdout, or throws a GitError with git's own first line of complaint. */
export async function gitOk(cwd: string, args: string[], what: string, o: GitOptions = {}): Promise<string> {
  return stdoutOrThrow(await git(cwd, args, o), what);
}
