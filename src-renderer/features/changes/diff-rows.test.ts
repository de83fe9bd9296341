import { describe, expect, it } from 'vitest';
import type { FileDiff } from '@shared/ipc/contract/changes';
import { buildRows } from './diff-rows';

const diff: FileDiff = {
  path: 'a.ts',
  status: 'modified',
  binary: false,
  symlink: false,
  truncated: false,
  hunks: [
    {
      header: '@@ -1,3 +1,3 @@',
      oldStart: 1,
      oldLines: 3,
      newStart: 1,
      newLines: 3,
      lines: [
        { kind: 'context', oldLine: 1, newLine: 1, text: 'a' },
        { kind: 'del', oldLine: 2, newLine: null, text: 'b' },
        { kind: 'del', oldLine: 3, newLine: null, text: 'c' },
        { kind: 'add', oldLine: null, newLine: 2, text: 'B' },
      ],
    },
  ],
};

describe('buildRows', () => {
  it('pairs removed lines with the added ones side by side, and puts comments and the editor after their line', () => {
    const comment = { id: 'c1', file: 'a.ts', side: 'old' as const, line: 3, quote: 'c', text: 'keep c' };
    const rows = buildRows(diff, 'split', [comment], { side: 'new', line: 2, text: 'B' });
    expect(rows.map((r) => r.type)).toEqual(['hunk', 'pair', 'pair', 'editor', 'pair', 'comment']);
    const pairs = rows.filter((r) => r.type === 'pair');
    expect(pairs.map((p) => [p.left?.text ?? null, p.right?.text ?? null])).toEqual([
      ['a', 'a'],
      ['b', 'B'],
      ['c', null],
    ]);
  });

  it('lists every line in unified order with comments of this file only', () => {
    const rows = buildRows(
      diff,
      'unified',
      [{ id: 'x', file: 'other.ts', side: 'new', line: 1, quote: '', text: '' }],
      null,
    );
    expect(rows.map((r) => (r.type === 'line' ? r.line.text : r.type))).toEqual(['hunk', 'a', 'b', 'c', 'B']);
  });
});
