import { execFileSync } from 'node:child_process';

/** git for test fixtures: no system config, a fixed author and committer, so commits always work. */
export const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

/** Runs git in `cwd` for a test's fixture and returns its stdout. */
export const runGit = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: GIT_TEST_ENV, encoding: 'utf8' });
