/**
 * What the Changes view's and the worktree helpers' git runners (changes/git.ts, worktrees/git.ts)
 * share beyond the hardening in harness/context/git-status.ts: their error, the identity a commit
 * gets when the person has none, and turning a failed run into that error.
 */

/** One git run: its exit code (null when killed or not started) and output. */
export interface GitResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitError';
  }
}

/** The first line of `text` that says something. */
export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? ''
  );
}

/** An identity for commits Carapace makes when the person has none configured. */
export const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: 'Carapace',
  GIT_AUTHOR_EMAIL: 'carapace@localhost',
  GIT_COMMITTER_NAME: 'Carapace',
  GIT_COMMITTER_EMAIL: 'carapace@localhost',
};

/** stdout of a run that succeeded, or a GitError with git's own first line of complaint. */
export function stdoutOrThrow(
  r: { code: number | null; stdout: string; stderr: string },
  what: string,
): string {
  if (r.code !== 0)
    throw new GitError(
      `${what}: ${firstLine(r.stderr) || firstLine(r.stdout) || `git exited ${String(r.code)}`}`,
    );
  return r.stdout;
}
