import { describe, expect, it } from 'vitest';
import { splitBlocks, splitsExactly } from './markdown-blocks';

describe('splitBlocks', () => {
  it('splits at blank lines between top-level blocks', () => {
    expect(splitBlocks('# Title\n\nOne\ntwo\n\n\n- a\n- b\n')).toEqual(['# Title', 'One\ntwo', '- a\n- b']);
  });

  it('keeps blank lines inside a fence in one block, closed or still streaming', () => {
    const closed = 'Look:\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter.';
    expect(splitBlocks(closed)).toEqual(['Look:', '```ts\nconst a = 1;\n\nconst b = 2;\n```', 'After.']);
    expect(splitBlocks('```py\nx = 1\n\n\ny = 2')).toEqual(['```py\nx = 1\n\n\ny = 2']);
  });

  it('closes a fence only with the same marker, at least as long', () => {
    const text = '````md\n```js\n\nx\n```\n\n````\n\nend';
    expect(splitBlocks(text)).toEqual(['````md\n```js\n\nx\n```\n\n````', 'end']);
    expect(splitBlocks('~~~\n```\n\n~~~\n\nend')).toEqual(['~~~\n```\n\n~~~', 'end']);
  });

  it('does not end a fence at a marker indented 4 or more spaces (CommonMark: at most 3)', () => {
    // The indented ``` is code inside the outer fence, so the blank line after it is too.
    const text = 'Example:\n\n```md\n    ```\n\nstill code\n   ```\n\nAfter.';
    expect(splitBlocks(text)).toEqual(['Example:', '```md\n    ```\n\nstill code\n   ```', 'After.']);
    // A tab is 4 columns, so it does not close either.
    expect(splitBlocks('```\n\t```\n\nx\n```\n\ny')).toEqual(['```\n\t```\n\nx\n```', 'y']);
  });

  it('keeps an indented continuation (a list item’s code or second paragraph) with its item', () => {
    const text =
      '1. Install:\n\n    ```sh\n    npm i\n\n    npm test\n    ```\n\n   More about it.\n\n2. Run.';
    expect(splitBlocks(text)).toEqual([text]);
  });

  it('keeps a loose list in one block, and splits where a paragraph at the margin ends it', () => {
    expect(splitBlocks('- a\n\n- b\n\nAfter.\n\n1) c\n\n2) d')).toEqual([
      '- a\n\n- b',
      'After.',
      '1) c\n\n2) d',
    ]);
  });
});

describe('splitsExactly', () => {
  it('is false for what a split cannot see across: definitions, footnotes, HTML that spans blank lines', () => {
    for (const text of [
      'See [x].\n\n[x]: https://example.com',
      'A note.[^1]\n\n[^1]: Why.',
      '<!-- a\n\nb -->',
      '<pre>\n\nx\n</pre>',
      '  <script>\n\n</script>',
      '<?php\n\n?>',
      '<!DOCTYPE html>',
      '<![CDATA[\n\n]]>',
    ])
      expect(splitsExactly(text), text).toBe(false);
  });

  it('is true for ordinary replies, and for HTML blocks that end at a blank line', () => {
    for (const text of ['# Plan\n\n- a\n\n- b', '<div>\nx\n</div>\n\ntext', 'a [link](https://x.y) b'])
      expect(splitsExactly(text), text).toBe(true);
  });

  it('does not take inline code with triple backticks for a fence', () => {
    expect(splitBlocks('```a``` is inline\n\nnext')).toEqual(['```a``` is inline', 'next']);
  });

  it('leaves earlier blocks byte-identical as the reply grows, so they can be memoised', () => {
    const full =
      'Intro para.\n\n```js\nlet x = 1;\n\nx++;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nLast words here.';
    let previous: string[] = [];
    for (let n = 1; n <= full.length; n++) {
      const blocks = splitBlocks(full.slice(0, n));
      // Every block but the previous last one is unchanged: only the tail grows or a new block starts.
      previous.slice(0, -1).forEach((block, i) => expect(blocks[i]).toBe(block));
      previous = blocks;
    }
    expect(previous).toHaveLength(4);
  });

  it('reads empty and blank-only text as no blocks', () => {
    expect(splitBlocks('')).toEqual([]);
    expect(splitBlocks('\n \n\t\n')).toEqual([]);
  });
});
