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
});
