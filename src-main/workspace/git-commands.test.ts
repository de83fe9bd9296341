import { describe, expect, it } from 'vitest';
import { firstLine, GitError, stdoutOrThrow } from './git-commands';

describe('stdoutOrThrow', () => {
  it('gives stdout of a run that succeeded', () => {
    expect(stdoutOrThrow({ code: 0, stdout: 'abc\n', stderr: 'warning' }, 'Reading')).toBe('abc\n');
  });
  it("throws git's first line of complaint, else stdout's, else the exit code", () => {
    const fail = (stdout: string, stderr: string, code: number | null) => () =>
      stdoutOrThrow({ code, stdout, stderr }, 'Committing');
    expect(fail('', '\n  fatal: no\nhint: x', 128)).toThrow(new GitError('Committing: fatal: no'));
    expect(fail('nothing to commit\n', '', 1)).toThrow('Committing: nothing to commit');
    expect(fail('', '', null)).toThrow('Committing: git exited null');
  });
  it('firstLine skips blank lines', () => {
    expect(firstLine('\n \n second \nthird')).toBe('second');
  });
});
