import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

describe('markdown reader', () => {
  it('reads fences, headings, lists, quotes and paragraphs', () => {
    const blocks = parseMarkdown(
      '# Title\n\nSome **bold** text\nand more.\n\n- one\n- two\n\n1. first\n\n> quoted\n\n```ts\nconst a = 1;\n```',
    );
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'quote', 'code']);
    expect(blocks[5]).toMatchObject({ kind: 'code', lang: 'ts', text: 'const a = 1;' });
    expect(blocks[2]).toMatchObject({
      ordered: false,
      items: [[{ kind: 'text', text: 'one' }], [{ kind: 'text', text: 'two' }]],
    });
  });

  it('treats an unclosed fence (mid-stream) as code to the end', () => {
    expect(parseMarkdown('Look:\n```js\nlet x')).toMatchObject([
      { kind: 'paragraph', inlines: [{ kind: 'text', text: 'Look:' }] },
      { kind: 'code', lang: 'js', text: 'let x' },
    ]);
  });

  it('keeps HTML as text and links only to http(s)', () => {
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)>' },
    ]);
    expect(parseInline('[x](javascript:alert(1))')).toEqual([
      { kind: 'text', text: '[x](javascript:alert(1))' },
    ]);
    expect(parseInline('see [docs](https://example.com/a)')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'https://example.com/a', children: [{ kind: 'text', text: 'docs' }] },
    ]);
  });

  it("keeps each block's source, so unchanged blocks can be skipped while the last one grows", () => {
    const before = parseMarkdown('First para.\n\nSecond gro');
    const after = parseMarkdown('First para.\n\nSecond growing');
    expect(before[0]?.source).toBe(after[0]?.source);
    expect(before[1]?.source).not.toBe(after[1]?.source);
  });

  it('reads inline code before emphasis, so `a*b*c` stays code', () => {
    expect(parseInline('`a*b*c` and *em*')).toEqual([
      { kind: 'code', text: 'a*b*c' },
      { kind: 'text', text: ' and ' },
      { kind: 'em', children: [{ kind: 'text', text: 'em' }] },
    ]);
  });
});
