import { describe, expect, it } from 'vitest';
import { diffLines, MAX_DIFF_LINES } from './diff';

describe('diffLines', () => {
  it('shows a change with three lines of context and a header for the skipped start', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n');
    const after = ['a', 'b', 'c', 'd', 'e', 'F', 'g', 'h'].join('\n');
    const d = diffLines(before, after);
    expect(d).toMatchObject({ added: 1, removed: 1 });
    expect(d.lines).toEqual([
      { op: '@', text: '@@ line 3 @@' },
      { op: ' ', text: 'c' },
      { op: ' ', text: 'd' },
      { op: ' ', text: 'e' },
      { op: '-', text: 'f' },
      { op: '+', text: 'F' },
      { op: ' ', text: 'g' },
      { op: ' ', text: 'h' },
    ]);
  });

  it('treats a new file as all additions', () => {
    expect(diffLines('', 'x\ny')).toEqual({
      lines: [
        { op: '+', text: 'x' },
        { op: '+', text: 'y' },
      ],
      added: 2,
      removed: 0,
    });
  });

  it('keeps at most MAX_DIFF_LINES lines for display, but counts every change', () => {
    const d = diffLines('', Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n'));
    expect(d.lines).toHaveLength(MAX_DIFF_LINES + 1);
    expect(d.lines.at(-1)).toEqual({ op: '@', text: '@@ 600 more diff lines not shown @@' });
    expect(d.added).toBe(1000);
  });

  it('finds inserted lines inside a block rather than replacing the block', () => {
    const d = diffLines('1\n2\n3', '1\n2\nnew\n3');
    expect(d).toMatchObject({ added: 1, removed: 0 });
  });

  it('gives each later hunk a header with its old line number', () => {
    const before = Array.from({ length: 30 }, (_, i) => `l${i + 1}`);
    const after = before.map((l) => (l === 'l2' ? 'L2' : l === 'l20' ? 'L20' : l));
    const d = diffLines(before.join('\n'), after.join('\n'));
    expect(d.lines.filter((l) => l.op === '@')).toEqual([{ op: '@', text: '@@ line 17 @@' }]);
    expect(d.lines[0]).toEqual({ op: ' ', text: 'l1' });
    expect(d).toMatchObject({ added: 2, removed: 2 });
  });

  it('shows an added or removed final newline as an empty line, never a "No newline" marker', () => {
    expect(diffLines('a\nb', 'a\nb\n').lines).toEqual([
      { op: ' ', text: 'a' },
      { op: ' ', text: 'b' },
      { op: '+', text: '' },
    ]);
    expect(diffLines('x\n', '').lines).toEqual([
      { op: '-', text: 'x' },
      { op: '-', text: '' },
    ]);
    expect(diffLines('same', 'same')).toEqual({ lines: [], added: 0, removed: 0 });
  });

  it('keeps carriage returns of CRLF text in the line, for the preview to handle', () => {
    expect(diffLines('a\r\nb\r\n', 'a\r\nc\r\n').lines).toContainEqual({ op: '+', text: 'c\r' });
  });

  it('shows two large, wholly different texts as a plain replace, quickly', () => {
    const before = Array.from({ length: 20_000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 20_000 }, (_, i) => `new ${i}`).join('\n');
    const started = performance.now();
    const d = diffLines(before, after);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(d).toMatchObject({ added: 20_000, removed: 20_000 });
    expect(d.lines[0]).toEqual({ op: '-', text: 'old 0' });
  });
});
