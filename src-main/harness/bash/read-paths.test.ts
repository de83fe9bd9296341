import { describe, expect, it } from 'vitest';
import { analyzeCommandSync } from './analyze';
import { linkFollowing, pathWords, readPaths } from './read-paths';
import { loadBashParser } from './tree-sitter';

const words = (command: string) => pathWords(command.split(' '));

describe('the words of a read-only command that name files it reads', () => {
  it.each([
    ['cat a b', ['a', 'b']],
    ['head -n 5 a', ['a']],
    ['tail -c5 -- -f', ['-f']],
    ['grep -rn foo src', ['src']],
    ['grep -e foo -e bar a', ['a']],
    ['grep -f pats a', ['pats', 'a']],
    ['grep --fil=pats a', ['pats', 'a']],
    ['rg --files /etc', ['/etc']],
    ['rg -g *.ts foo src', ['src']],
    ['sed -n 1p a', ['a']],
    ['sed -e 1p -e 2p a b', ['a', 'b']],
    ['awk -F , {print} a', ['a']],
    ['sort -k 2 -T /tmp a', ['/tmp', 'a']],
    ['find / -name x -newer ref', ['/', 'ref']],
    ['find -L . -type f', ['.']],
    ['jq . a', ['a']],
    ['jq -n --slurpfile x /s --arg y z .', ['/s']],
    ['jq -f prog.jq a', ['prog.jq', 'a']],
    ['jq . --args a b', []],
    ['xxd -c 8 a', ['a']],
    ['date -r /etc/passwd +%s', ['/etc/passwd']],
    ['date +%s', []],
    ['echo /etc/passwd', []],
    ['xargs -a /list', ['/list']],
    ['test -f /x', ['/x']],
    ['[ a = b ]', []],
    ['git -C /repo log -- src', ['/repo', 'log', 'src']],
    ['git config --get x --file /cfg', ['config', 'x', '/cfg']],
    ['diff --from-file=/a b', ['/a', 'b']],
    ['wc --files0-from=/list', ['/list']],
    ['du -X /ex .', ['/ex', '.']],
  ])('%s → %j', (command, expected) => {
    expect(words(command)).toEqual(expected);
  });

  it('reads a program it does not describe as taking files', () => {
    expect(words('strings -n 4 a')).toEqual(['a']);
    expect(words('tac /x')).toEqual(['/x']);
  });
});

describe('paths against the directory each command runs in', () => {
  it('expands ~, follows cd, and leaves globs and ~user unresolved', async () => {
    await loadBashParser();
    const reads = (command: string) =>
      readPaths(analyzeCommandSync(command).commands, { cwd: '/p', home: '/h' });
    expect(reads('cat ~/x ../y')).toEqual([{ index: 0, name: 'cat', paths: ['/h/x', '/y'], unresolved: [] }]);
    // /nonexistent may not exist, so cat could run in /p or in it.
    expect(reads('cd /nonexistent; cat k').at(-1)?.paths).toEqual(['/p/k', '/nonexistent/k']);
    expect(reads('cd /; cat k').at(-1)?.paths).toEqual(['/k']);
    expect(reads('cd; cat k').at(-1)?.paths).toEqual(['/p/k', '/h/k']);
    expect(reads('cd -; cat k').at(-1)?.unresolved).toEqual(['k']);
    expect(reads('cat *.txt')[0]?.unresolved).toEqual(['*.txt']);
    expect(reads("cat '*.txt'")[0]?.paths).toEqual(['/p/*.txt']);
    expect(reads('cat ~root/x')[0]?.unresolved).toEqual(['~root/x']);
    // Commands that are not read-only are judged elsewhere (they ask anyway).
    expect(reads('rm ~/x')).toEqual([]);
  });
});

describe('the files input redirects open', () => {
  it('reads `<`, `N<` targets of every command, not here-strings, heredocs, descriptors or /dev/null', async () => {
    await loadBashParser();
    const reads = (command: string) =>
      readPaths(analyzeCommandSync(command).commands, { cwd: '/p', home: '/h' });
    expect(reads('cat < ~/.ssh/id_rsa')).toEqual([
      { index: 0, name: 'cat', paths: ['/h/.ssh/id_rsa'], unresolved: [] },
    ]);
    // The parser takes `0` for a word and `<../k` for the redirect: both are read, the cautious reading.
    expect(reads('cat 0<../k')[0]?.paths).toContain('/k');
    expect(reads('wc -l a 3< /k')[0]?.paths).toEqual(['/k', '/p/a']);
    expect(reads('cd /; cat < k').at(-1)?.paths).toEqual(['/k']);
    expect(reads('cat < *.txt')[0]?.unresolved).toEqual(['*.txt']);
    // Not read-only, still read: the shell opens the file before the program runs.
    expect(reads('rm x < /k')).toEqual([{ index: 0, name: 'rm', paths: ['/k'], unresolved: [] }]);
    // A redirect on cd does not move the line there.
    expect(reads('cd / < /k; cat a').at(-1)?.paths).toEqual(['/a']);
    // Controls.
    for (const command of ['cat <<< /k', "cat <<'EOF'\n/k\nEOF", 'cat <&0', 'cat < /dev/null', 'cat'])
      expect(reads(command), command).toEqual([]);
  });
});

describe('recursive commands that follow symlinks', () => {
  it.each([
    ['grep -R x .', '`grep -R`'],
    ['grep -nR x', '`grep -R`'],
    ['grep --dereference-recursive x', '`grep -R`'],
    ['rg -L x', '`rg --follow`'],
    ['rg --follow x .', '`rg --follow`'],
    ['find -L .', '`find -L`'],
    ['find -H -L .', '`find -L`'],
    ['find . -follow', '`find -follow`'],
    ['ls -LR', '`ls -LR`'],
    ['ls --dereference --recursive', '`ls -LR`'],
    ['du -L', '`du -L`'],
    ['du --dereference .', '`du -L`'],
    ['tree -l', '`tree -l`'],
    ['diff -r a b', '`diff -r`'],
    // Controls: recursing without following links, or following without recursing.
    ['grep -r x .', null],
    ['grep -e -R x', null],
    ['rg x', null],
    ['find . -name -L', null],
    ['find -P .', null],
    ['ls -R', null],
    ['ls -L', null],
    ['du -sh .', null],
    ['du -D link', null],
    ['tree', null],
    ['diff -r --no-dereference a b', null],
    ['cat -R', null],
  ])('%s → %s', (command, form) => {
    expect(linkFollowing(command.split(' '))).toBe(form);
  });

  it('reads the working directory when given no path', async () => {
    await loadBashParser();
    const reads = (command: string) =>
      readPaths(analyzeCommandSync(command).commands, { cwd: '/p', home: '/h' });
    expect(reads('grep -R x')).toEqual([
      { index: 0, name: 'grep', paths: ['/p'], unresolved: [], followsLinks: '`grep -R`' },
    ]);
    expect(reads('rg -L x src')[0]?.paths).toEqual(['/p/src']);
    expect(reads('grep -r x')).toEqual([]);
  });
});
