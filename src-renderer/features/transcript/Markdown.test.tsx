import { act, cleanup, render } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Markdown, MarkdownBlocks, markdownOptions } from './Markdown';
import { splitBlocks, splitsExactly } from './markdown-blocks';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The throttle's timer and clock under the test's control; it starts long after a quiet spell. */
function useStreamClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  vi.advanceTimersByTime(1000);
}

const show = (text: string) => render(<Markdown text={text} />).container;

describe('Markdown', () => {
  it('renders GFM tables, with alignment as a class rather than a style', () => {
    const root = show('| Name | Size |\n|:-----|-----:|\n| a.ts | 12 |\n| b.ts | 340 |');
    expect(root.querySelectorAll('table th')).toHaveLength(2);
    expect([...root.querySelectorAll('tbody td')].map((td) => td.textContent)).toEqual([
      'a.ts',
      '12',
      'b.ts',
      '340',
    ]);
    expect(root.querySelector('tbody td:last-child')?.className).toBe('md-align-right');
    expect(root.querySelector('[style]')).toBeNull();
  });

  it('renders task lists as checkboxes nobody can tick', () => {
    const boxes = [...show('- [x] tests\n- [ ] docs').querySelectorAll('input[type=checkbox]')];
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([true, false]);
    expect(boxes.every((b) => (b as HTMLInputElement).disabled)).toBe(true);
  });

  it('highlights fenced code with hljs classes, and leaves a fence without a language plain', () => {
    const root = show('```ts\nconst answer: number = 42; // why\n```\n\n```\nplain text\n```');
    const [ts, plain] = [...root.querySelectorAll('pre > code')];
    expect(ts?.className).toContain('hljs');
    expect(ts?.className).toContain('language-ts');
    expect(ts?.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(ts?.querySelector('.hljs-comment')?.textContent).toBe('// why');
    expect(plain?.querySelector('[class^=hljs-]')).toBeNull();
    expect(plain?.textContent).toBe('plain text\n');
  });

  it('shows raw HTML from the model as text and runs nothing', () => {
    const root = show('Look <img src=x onerror="window.pwned=1"> here\n\n<script>window.pwned=2</script>');
    expect(root.querySelector('img, script')).toBeNull();
    expect(root.textContent).toContain('<img src=x onerror="window.pwned=1">');
    expect(root.textContent).toContain('<script>window.pwned=2</script>');
    expect((window as { pwned?: number }).pwned).toBeUndefined();
  });

  it('links only http, https and mailto, opening them outside the app', () => {
    const root = show(
      '[site](https://example.com/a) [mail](mailto:a@b.c) [bad](javascript:alert(1)) [data](data:text/html,x) [rel](src/a.ts) <https://auto.example>',
    );
    const links = [...root.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a',
      'mailto:a@b.c',
      'https://auto.example',
    ]);
    for (const a of links) {
      expect(a.target).toBe('_blank');
      expect(a.rel).toBe('noopener noreferrer');
    }
    expect(root.textContent).toContain('bad');
    expect(root.textContent).toContain('rel');
  });

  it('shows a remote image as a link instead of loading it', () => {
    const root = show('![chart](https://example.com/c.png)');
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('a')?.textContent).toBe('Image: chart');
  });

  it('puts model headings below the app’s own, sized by level', () => {
    const root = show('# One\n\n## Two\n\n### Three\n\n#### Four');
    expect([...root.querySelectorAll('h3, h4, h5, h6')].map((h) => `${h.tagName}.${h.className}`)).toEqual([
      'H3.md-h1',
      'H4.md-h2',
      'H5.md-h3',
      'H6.md-h4',
    ]);
    expect(root.querySelector('h1, h2')).toBeNull();
  });

  it('renders a reply split into blocks exactly as one whole parse would', () => {
    // The splitter is an optimisation: it must never change what a reply looks like.
    const whole = (text: string) =>
      renderToStaticMarkup(<ReactMarkdown {...markdownOptions}>{text}</ReactMarkdown>);
    const split = (text: string) =>
      renderToStaticMarkup(<MarkdownBlocks blocks={splitBlocks(text)} />).replace(
        /^<div class="markdown">|<\/div>$/g,
        '',
      );
    const replies = [
      'Intro with `code` and **bold**.\n\nSecond paragraph\nwith a soft break.',
      '# Plan\n\n1. Install:\n\n    ```sh\n    npm i\n\n    npm test\n    ```\n\n   Then more.\n',
      '```ts\nconst a = 1;\n\n\nconst b = a + 1;\n```\n\n> quoted\n> lines\n\n---\n\n| a |\n|---|\n| 1 |',
      'See [docs](https://example.com).\n\n- [ ] one\n- [x] two\n\n~~gone~~ text',
    ];
    // Blocks rendered apart lose only the newlines react-markdown puts between sibling elements
    // (and before raw HTML, which it shows as text): whitespace that draws as nothing.
    const tidy = (html: string) =>
      html
        .replace(/>\n+</g, '><')
        .replace(/(<\/[a-z0-9]+>)\n+(?=&lt;)/g, '$1')
        .replace(/&gt;\n+</g, '&gt;<');
    for (const reply of replies) expect(tidy(split(reply))).toBe(tidy(whole(reply)));
    // A finished reply keeps its blocks whenever splitsExactly says so: then every text (here every
    // prefix of a reply with loose lists, nested lists, quotes, HTML, tables and fences, as it
    // streams) must read as one parse would; and what it rules out must really read otherwise.
    const mixed =
      '1. One\n\n2. Two\n   - nested\n\n   - loose\n\n> quote\n\n> another\n\n<div>\nhtml\n</div>\n\n' +
      '* a\n* b\n\n    indented code\n\n| t |\n|---|\n| 1 |\n\n```\nx\n\ny\n```\n\n- [ ] task\n\n- [x] done\n\nEnd';
    let checked = 0;
    for (let n = 1; n <= mixed.length; n++) {
      const text = mixed.slice(0, n);
      if (!splitsExactly(text)) continue;
      checked++;
      expect(tidy(split(text)), JSON.stringify(text)).toBe(tidy(whole(text)));
    }
    expect(checked).toBe(mixed.length);
    for (const reply of ['- a\n\n[x]: https://e.x\n\n[x]', 'n[^1]\n\n[^1]: f', '<!--\n\nhidden -->'])
      expect(tidy(split(reply))).not.toBe(tidy(whole(reply)));
    // Two whole renders for each of ~200 prefixes: 3 s on a quiet two-core machine, so the default 5 s
    // is too close when other suites share the cores. It is work, not waiting.
  }, 30_000);

  it('renders a streamed reply, once finished, exactly as the same reply loaded whole', () => {
    // Each of these spans blocks, which a split render cannot see across.
    const reply =
      'See [the docs][d] and a note.[^1]\n\n- a\n\n- b\n\n[d]: https://example.com/docs\n\n[^1]: The note.';
    const loaded = render(<Markdown text={reply} />).container.innerHTML;
    expect(loaded).toContain('href="https://example.com/docs"');
    expect(loaded).toContain('<li>\n<p>a</p>');
    // The last text may still be held by the throttle; the clock is the test's, so it is let
    // through by moving the clock, not by a real wait that a loaded machine can outlast.
    useStreamClock();
    const view = render(<Markdown text="See" streaming />);
    for (let n = 10; n <= reply.length; n += 10)
      act(() => view.rerender(<Markdown text={reply.slice(0, n)} streaming />));
    act(() => view.rerender(<Markdown text={reply} streaming />));
    act(() => view.rerender(<Markdown text={reply} streaming={false} />));
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(view.container.innerHTML).toBe(loaded);
  });

  it('shows a streaming text at most every 100 ms, and always its latest text in the end', () => {
    // On the real clock a loaded machine can take 100 ms between two renders, and the held-back
    // text then rightly shows at once: the test's own clock makes "right after" mean right after.
    useStreamClock();
    const view = render(<Markdown text="One" streaming />);
    const shown = () => view.container.textContent;
    expect(shown()).toBe('One');
    // The first change after a quiet spell shows at once; changes right after it wait their turn.
    act(() => view.rerender(<Markdown text="One two" streaming />));
    expect(shown()).toBe('One two');
    act(() => view.rerender(<Markdown text="One two three" streaming />));
    act(() => view.rerender(<Markdown text={'One two three\n\n**four**'} streaming />));
    expect(shown()).toBe('One two');
    act(() => {
      vi.advanceTimersByTime(99);
    });
    expect(shown()).toBe('One two');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(shown()).toBe('One two threefour');
    expect(view.container.querySelector('strong')?.textContent).toBe('four');
  });
});
