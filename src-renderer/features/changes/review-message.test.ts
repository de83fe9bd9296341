import { describe, expect, it } from 'vitest';
import { reviewMessage } from './review-message';

describe('reviewMessage', () => {
  it('lists each comment with file:line, the quoted line and the text, ordered by file and line', () => {
    const text = reviewMessage([
      { id: 'a', file: 'src/b.ts', side: 'new', line: 9, quote: 'const b = 2;', text: 'Name this.' },
      {
        id: 'b',
        file: 'src/a.ts',
        side: 'old',
        line: 3,
        quote: 'return x;',
        text: 'Why remove it?\nIt was used.',
      },
      { id: 'c', file: 'src/a.ts', side: 'new', line: 12, quote: 'x'.repeat(400), text: '  Too long  ' },
    ]);
    expect(text).toBe(
      [
        'Review comments on your changes (3 comments):',
        '',
        '- src/a.ts:3 (removed line)',
        '   > return x;',
        '   Why remove it?',
        '   It was used.',
        '',
        '- src/a.ts:12',
        `   > ${'x'.repeat(300)}…`,
        '   Too long',
        '',
        '- src/b.ts:9',
        '   > const b = 2;',
        '   Name this.',
      ].join('\n'),
    );
  });
});
