import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommandSync } from './analyze';
import { classify } from './classify';
import { namesLong, operands, parseOptions } from './options';
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
    // Output files named by position or by a flag spelled another way.
    ['xxd in out', '`xxd IN OUT` writes OUT'],
    ['xxd -c 16 in out', '`xxd IN OUT` writes OUT'],
    ['xxd -- in out', '`xxd IN OUT` writes OUT'],
    ['xxd - out', '`xxd IN OUT` writes OUT'],
    ['xxd -revert in', '`xxd -r` writes binary output'],
    ['xxd --r in', '`xxd -r` writes binary output'],
    ['xxd -x in', '`xxd -x` is not known to only read'],
    ['uniq - out', '`uniq IN OUT` writes a file'],
    ['uniq -f 1 in out', '`uniq IN OUT` writes a file'],
    ['sort --outp=out in', '`sort --output` writes a file'],
    ['sort -o./out in', '`sort -o` writes a file'],
    ['sort -uo./out in', '`sort -o` writes a file'],
    ['sort --compress-prog=sh in', '`sort --compress-program` runs a command'],
    ["sed --expr='w out' f", 'the sed script writes a file or runs a command (w, W or e)'],
    ["sed -l 5 'w out' f", 'the sed script writes a file or runs a command (w, W or e)'],
    ["sed -nl 5 'w out' f", 'the sed script writes a file or runs a command (w, W or e)'],
    ["sed --in-pl -e 's/a/b/' f", '`sed -i` edits files in place'],
    ["sed 'r data' f", 'the sed script reads a file it names (r, R)'],
    ['awk -v x=1 \'BEGIN{system("id")}\'', '`awk system()` runs a command'],
    ['awk -F : \'BEGIN{system("id")}\'', '`awk system()` runs a command'],
    ["awk --profile=out 'BEGIN{}'", '`awk --profile` is not known to only read'],
    ["gawk -i inc.awk 'BEGIN{}'", '`awk -i` is not known to only read'],
    ['awk \'BEGIN{getline l < "/etc/shadow"; print l}\'', 'awk reads a file the program names'],
    ['awk \'@include "x.awk"\'', 'gawk `@` directives load code or call functions by name'],
    ["git grep -O'touch x' foo", '`git grep -O'],
    ['git grep --open-files-in-p=vim foo', 'runs a program on the files it finds'],
    ['git stash list --output=out', '`git stash --output` writes a file'],
    ['git stash show --output=out', '`git stash --output` writes a file'],
    ['git stash pop', '`git stash` changes the working tree'],
    ['git reflog expire --all', '`git reflog expire/delete` rewrites the reflog'],
    ['git cat-file --filters HEAD:f', '`git cat-file --filters` runs external programs'],
    ['tree -o./out', '`tree -o` writes a file'],
    ['tree -R -H .', '`tree -R` writes 00Tree.html files'],
    ['date -us 12:00', '`date -s` sets the clock'],
    ['date --se=12:00', '`date --set` sets the clock'],
    ['hostname --file=/etc/hostname', '`hostname` with these arguments sets the host name'],
    ['hostname -F/etc/hostname', '`hostname` with these arguments sets the host name'],
    ['file --comp -m x', '`file --compile` compiles a magic file'],
    ['printf -v PATH %s .', '`printf -v` sets a shell variable for the commands after it'],
    // Variables that change what a read-only program runs or reads, and nohup's own file.
    ['RIPGREP_CONFIG_PATH=rgrc rg x', 'it sets `RIPGREP_CONFIG_PATH` for `rg`'],
    ['HOME=. git status', 'it sets `HOME` for `git`'],
    ['nohup ls', '`nohup` writes nohup.out'],
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
      'xxd in',
      'xxd -c 16 -g 2 -l 64 in',
      'xxd -',
      'uniq -c in',
      'uniq -',
      'sort -k2 -t, in',
      'sort -T/tmp/foo in',
      "sed -n -e '1p' f",
      "awk -v n=2 -F, '{print $n}' f",
      'git stash show -p',
      'git log -O order.txt',
      'hostname -s',
      'date -d yesterday +%F',
      'LC_ALL=C TZ=UTC ls -l',
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
    // Reading programs told to write are writes.
    ['xxd in out', 'write'],
    ['xxd in', 'read'],
    ['sort -o out in', 'write'],
    ['find . -delete', 'write'],
    ['uniq in out', 'write'],
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

describe('options read as getopt reads them', () => {
  it('splits bundles, attached and separate values, abbreviations, -- and a lone -', () => {
    const spec = { shortValues: 'k', longValues: ['--key'] };
    expect(parseOptions(['-uk2', '-k', '3', '--key=4', '--ke', '5', '-', '--', '-x'], spec)).toEqual([
      { kind: 'short', flag: '-u' },
      { kind: 'short', flag: '-k', value: '2' },
      { kind: 'short', flag: '-k', value: '3' },
      { kind: 'long', flag: '--key', value: '4' },
      { kind: 'long', flag: '--ke', value: '5' },
      { kind: 'operand', word: '-' },
      { kind: 'operand', word: '-x' },
    ]);
    expect(namesLong('--outp', '--output')).toBe(true);
    expect(namesLong('--', '--output')).toBe(false);
    expect(namesLong('--outputs', '--output')).toBe(false);
  });

  it('reads an option it does not know as a flag, so its next word counts as an operand', () => {
    expect(operands(parseOptions(['-z', 'a', 'b']))).toEqual(['a', 'b']);
  });
});
