import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DiffView } from './DiffView';

afterEach(cleanup);

describe('DiffView', () => {
  it('shows each line with its mark, its line numbers and syntax colours by the file’s extension', () => {
    const { container } = render(
      <DiffView
        path="src/a.ts"
        label="Changes to src/a.ts"
        lines={[
          { op: '@', text: '@@ line 7 @@' },
          { op: ' ', text: 'const keep = 1;' },
          { op: '-', text: 'const old = "x";' },
          { op: '+', text: 'const fresh = "y";' },
        ]}
      />,
    );
    const del = container.querySelector('.diff-del');
    const add = container.querySelector('.diff-add');
    // The numbers are CSS-drawn (data-n), so a line's text is just its mark and its code.
    expect(del?.textContent).toBe('- const old = "x";\n');
    expect(add?.textContent).toBe('+ const fresh = "y";\n');
    expect(
      [...container.querySelectorAll('.diff-ctx .diff-ln')].map((n) => n.getAttribute('data-n')),
    ).toEqual(['7', '7']);
    expect([...(del?.querySelectorAll('.diff-ln') ?? [])].map((n) => n.getAttribute('data-n'))).toEqual([
      '8',
      '',
    ]);
    expect([...(add?.querySelectorAll('.diff-ln') ?? [])].map((n) => n.getAttribute('data-n'))).toEqual([
      '',
      '8',
    ]);
    expect(add?.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(add?.querySelector('.hljs-string')?.textContent).toBe('"y"');
    expect(container.querySelector('.diff-hunk')?.textContent).toBe('@@ line 7 @@\n');
    expect(container.querySelector('[aria-label="Changes to src/a.ts"]')).not.toBeNull();
  });

  it('shows an unknown file type plain', () => {
    const { container } = render(
      <DiffView path="notes.zzz" label="x" lines={[{ op: '+', text: 'const not code' }]} />,
    );
    expect(container.querySelector('[class^=hljs-]')).toBeNull();
    expect(container.querySelector('.diff-add')?.textContent).toBe('+ const not code\n');
  });
});
