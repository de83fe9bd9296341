import { describe, expect, it } from 'vitest';
import { analyzeCommandSync } from './analyze';
import { pathWords, readPaths } from './read-paths';
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
