import { describe, expect, it } from 'vitest';
import { findImports, stripBlockComments } from './markdown-scan';

describe('findImports', () => {
  it('finds relative, home and absolute imports in prose, in order', () => {
    const text = 'See @docs/notes.md and @~/shared.md.\n@/etc/team/rules.md\nAlso @./a.md, @../b.md';
    expect(findImports(text)).toEqual([
      'docs/notes.md',
      '~/shared.md',
      '/etc/team/rules.md',
      './a.md',
      '../b.md',
    ]);
  });

  it('skips inline code spans, including double-backtick spans', () => {
    expect(findImports('Run `npm i @scope/pkg` then read @real.md')).toEqual(['real.md']);
    expect(findImports('``a ` @inside.md`` and @outside.md')).toEqual(['outside.md']);
  });

  it('treats an unmatched backtick as text, so what follows is still prose', () => {
    expect(findImports('a lone ` then @after.md')).toEqual(['after.md']);
  });

  it('skips fenced blocks (backticks and tildes) until the matching closing fence', () => {
    const text = [
      '```ts',
      '@Component() // a decorator, not an import',
      '~~~',
      '@still-code.md',
      '```',
      '@after-fence.md',
      '~~~~',
      '@in-tilde.md',
      '```',
      '~~~~',
      '@last.md',
    ].join('\n');
    expect(findImports(text)).toEqual(['after-fence.md', 'last.md']);
  });

  it('needs whitespace or the line start before @, so emails and @@ are not imports', () => {
    expect(findImports('mail me@example.com or @@twice or @#tag')).toEqual([]);
  });

  it('unescapes "\\ " and drops a #heading suffix', () => {
    expect(findImports('@my\\ notes.md#setup')).toEqual(['my notes.md']);
  });
});

describe('stripBlockComments', () => {
  it('removes block comments, one-line and multi-line, keeping text after the closer', () => {
    const text = ['keep 1', '<!-- gone -->', '<!-- also', 'gone @hidden.md', '--> kept tail', 'keep 2'].join(
      '\n',
    );
    expect(stripBlockComments(text)).toBe('keep 1\nkept tail\nkeep 2');
    expect(findImports(stripBlockComments(text))).toEqual([]);
  });

  it('leaves comments inside fenced blocks and inline comments alone', () => {
    const text = ['```html', '<!-- shown as code -->', '```', 'text <!-- inline --> text'].join('\n');
    expect(stripBlockComments(text)).toBe(text);
  });

  it('leaves an unclosed comment as it is rather than hiding the rest of the file', () => {
    const text = '<!-- never closed\n@still-read.md';
    expect(stripBlockComments(text)).toBe(text);
  });
});
