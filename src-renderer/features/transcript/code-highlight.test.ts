import { describe, expect, it } from 'vitest';
import { highlightLines, languageForPath } from './code-highlight';

describe('languageForPath', () => {
  it('finds the language from the extension or the file name', () => {
    expect(languageForPath('/p/src/app.ts')).toBe('ts');
    expect(languageForPath('C:\\p\\main.rs')).toBe('rs');
    expect(languageForPath('config.toml')).toBe('toml');
    expect(languageForPath('lib/x.mts')).toBe('typescript');
    expect(languageForPath('Makefile')).toBe('makefile');
    expect(languageForPath('notes.unknownext')).toBeNull();
    expect(languageForPath('')).toBeNull();
  });
});

describe('highlightLines', () => {
  it('returns one token list per line, a multi-line comment coloured on every line', () => {
    const lines = highlightLines(['const a = 1; /* starts', 'still comment */', '', 'let b = "s";'], 'ts');
    expect(lines).toHaveLength(4);
    expect(lines[0]?.[0]).toEqual({ text: 'const', className: 'hljs-keyword' });
    expect(lines[1]).toEqual([{ text: 'still comment */', className: 'hljs-comment' }]);
    expect(lines[2]).toEqual([]);
    expect(lines[3]?.find((t) => t.className === 'hljs-string')?.text).toBe('"s"');
    // Nothing lost or added: the tokens spell the lines.
    expect(lines.map((l) => l.map((t) => t.text).join(''))).toEqual([
      'const a = 1; /* starts',
      'still comment */',
      '',
      'let b = "s";',
    ]);
  });

  it('leaves code plain without a language', () => {
    expect(highlightLines(['const a', ''], null)).toEqual([[{ text: 'const a' }], []]);
  });
});
