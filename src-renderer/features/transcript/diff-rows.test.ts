import { describe, expect, it } from 'vitest';
import { diffRows, type DiffViewLine } from './diff-rows';

const numbers = (lines: DiffViewLine[]) => diffRows(lines).map((r) => [r.op, r.oldNo, r.newNo]);

describe('diffRows', () => {
  it('numbers a diff from line 1 of both files when no header says otherwise', () => {
    expect(
      numbers([
        { op: ' ', text: 'a' },
        { op: '-', text: 'b' },
        { op: '+', text: 'B' },
        { op: '+', text: 'C' },
        { op: ' ', text: 'd' },
      ]),
    ).toEqual([
      [' ', 1, 1],
      ['-', 2, null],
      ['+', null, 2],
      ['+', null, 3],
      [' ', 3, 4],
    ]);
  });

  it('reads "@@ line N @@" as the old line and shifts the new one by what changed before', () => {
    expect(
      numbers([
        { op: '+', text: 'new first line' },
        { op: ' ', text: 'a' },
        { op: '@', text: '@@ line 40 @@' },
        { op: '-', text: 'x' },
        { op: ' ', text: 'y' },
      ]),
    ).toEqual([
      ['+', null, 1],
      [' ', 1, 2],
      ['@', null, null],
      ['-', 40, null],
      [' ', 41, 41],
    ]);
  });

  it('reads unified headers, and stops numbering after a header it cannot read', () => {
    expect(
      numbers([
        { op: '@', text: '@@ -10,2 +12,3 @@' },
        { op: ' ', text: 'a' },
        { op: '+', text: 'b' },
        { op: '@', text: '… 120 more diff lines not shown' },
        { op: ' ', text: 'c' },
      ]),
    ).toEqual([
      ['@', null, null],
      [' ', 10, 12],
      ['+', null, 13],
      ['@', null, null],
      [' ', null, null],
    ]);
  });
});
