import { describe, expect, it } from 'vitest';
import { snippetOf } from './snippet';

const marked = (s: { text: string; highlights: [number, number][] }) =>
  s.highlights.map(([a, b]) => s.text.slice(a, b));

describe('search snippets', () => {
  it('shows a window around the first match of a long text, marking every word and the phrase', () => {
    const text = `${'filler words here. '.repeat(40)}Then the Cache Warmup ran\nand the cache warmed. ${'tail '.repeat(60)}`;
    const s = snippetOf(text, 'cache warmup', ['cache', 'warmup']);
    expect(s.text.startsWith('…')).toBe(true);
    expect(s.text.endsWith('…')).toBe(true);
    expect(s.text.length).toBeLessThan(260);
    expect(marked(s)).toEqual(['Cache Warmup', 'cache']);
    // Ranges are in the snippet's own characters, never overlapping.
    for (const [a, b] of s.highlights) expect(a).toBeLessThan(b);
  });

  it('marks the longer words a prefix matched, and treats markup as text', () => {
    const s = snippetOf('<b>refactoring</b> the refactor', 'refac', ['refactoring', 'refactor']);
    expect(s.text).toBe('<b>refactoring</b> the refactor');
    expect(marked(s)).toEqual(['refactoring', 'refactor']);
  });
});
