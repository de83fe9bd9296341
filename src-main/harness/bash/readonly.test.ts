import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommandSync } from './analyze';
import { classify } from './classify';
import { GIT_READ, readOnlyReason } from './readonly';
import { loadBashParser } from './tree-sitter';

beforeAll(() => loadBashParser());

const reason = (command: string) => analyzeCommandSync(command).reasons.join(' | ');

describe('flag-level read-only allowlist', () => {
  it.each([
    ['find . -name x -exec rm {} \\;', '`find -exec` runs a command'],
    ['find . -delete', '`find -delete` deletes files'],
    ['find . -fprint out', '`find -fprint` writes a file'],
    ['sort -o out in', '`sort -o` writes a file'],
    ['sort --output=out in', '`sort --output` writes a file'],
    ['git diff --output=x', '`git diff --output` writes a file'],
    ['git -c core.pager=x log', '`git -c` sets configuration that can run commands'],
    ['git push', '`git push` is not a read-only git command'],
    ['git branch -D x', '`git branch` with these arguments changes branches'],
    ['rg --pre ./x foo', '`rg --pre` runs a preprocessor command'],
    ["sed -i 's/a/b/' f", '`sed -i` edits files in place'],
    ["sed -ni 's/a/b/p' f", '`sed -i` edits files in place'],
    ["sed 's/a/b/w out' f", 'the sed script writes a file or runs a command (w, W or e)'],
    ["sed '1e id' f", 'the sed script writes a file or runs a command (w, W or e)'],
    ['awk \'BEGIN{system("id")}\'', '`awk system()` runs a command'],
    ['awk \'{print > "out"}\' f', 'awk writes a file'],
    ['less f', 'pagers are interactive and can run commands'],
    ['vim f', '`vim` is not a known read-only command'],
    ['tail -f log', '`tail -f` follows the file without end'],
    ['uniq in out', '`uniq IN OUT` writes a file'],
  ])('%s → %s', (command, expected) => {
    expect(reason(command)).toContain(expected);
  });

  it('accepts the same commands without the dangerous flags', () => {
    for (const ok of [
      'find . -name x -print',
      'sort in',
      'git diff --stat',
      'git log -p',
      'rg -n foo',
      "sed -n 's/a/b/p' f",
      "sed 's/hello/world/' f",
      "awk '$1 > 5 {n++} END {print n}' f",
    ]) {
      expect(reason(ok), ok).toBe('');
    }
  });

  it('refuses computed names and arguments', () => {
    expect(readOnlyReason([null, 'x'])).toBe('the command name is computed at run time');
    expect(readOnlyReason(['cat', null])).toBe('an argument of `cat` is computed at run time');
    expect(readOnlyReason(['toString'])).toBe('`toString` is not a known read-only command');
  });
});

describe('semantic classification', () => {
  it.each([
    ['grep -rn foo src', 'search'],
    ['rg foo | head', 'search'],
    ['cat a b', 'read'],
    ['ls -la', 'list'],
    ['rm -rf build', 'write'],
    ['ls > out', 'write'],
    ['cat a | grep x > out', 'write'],
    ['curl https://x', 'network'],
    ['git push', 'network'],
    ['npm install', 'network'],
    ['kill 12', 'process'],
    ['make', 'other'],
    ['git log', 'read'],
    // Every git subcommand the analysis allows as read-only is classified as reading.
    ['git whatchanged', 'read'],
    ['git grep foo', 'search'],
  ])('%s → %s', (command, expected) => {
    const a = analyzeCommandSync(command);
    expect(a.classification).toBe(expected);
  });

  it('classifies every read-only git subcommand as read or search', () => {
    for (const sub of GIT_READ)
      expect(['read', 'search']).toContain(analyzeCommandSync(`git ${sub}`).classification);
  });

  it('takes the weightiest part of a compound command', () => {
    expect(classify([])).toBe('other');
    expect(analyzeCommandSync('ls && rm x').classification).toBe('write');
  });
});
