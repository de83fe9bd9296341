import { describe, expect, it } from 'vitest';
import { OutputBuffer } from './output-buffer';
import { plainText, PlainTextStream } from './plain-text';
import { findEndMarker, newEndMarker } from './end-marker';

describe('OutputBuffer', () => {
  it('keeps everything under the limit, in order', () => {
    const b = new OutputBuffer(100);
    for (const part of ['ab', 'cd', 'ef']) b.push(part);
    expect(b.text()).toBe('abcdef');
    expect(b.total).toBe(6);
  });

  it('beyond the limit keeps the head and the tail and says how much was left out', () => {
    const b = new OutputBuffer(10);
    for (let i = 0; i < 100; i++) b.push(String(i % 10));
    expect(b.total).toBe(100);
    expect(b.text()).toBe('01234\n… [90 characters of output not kept] …\n56789');
  });

  it('with a limit of 0 keeps nothing but still counts', () => {
    const b = new OutputBuffer(0);
    b.push('hello');
    expect(b.text()).toBe('\n… [5 characters of output not kept] …\n');
    expect(b.total).toBe(5);
  });
});

describe('PlainTextStream', () => {
  it('strips an escape sequence split across chunks, and a \\r\\n split in two', () => {
    const s = new PlainTextStream();
    const out = [
      s.push('red \x1b[3'),
      s.push('1mtext\x1b'),
      s.push('[0m done\r'),
      s.push('\nnext'),
      s.end(),
    ].join('');
    expect(out).toBe('red text done\nnext');
    expect(out).toBe(plainText('red \x1b[31mtext\x1b[0m done\r\nnext'));
  });

  it('lets a lone escape through once it cannot be a sequence', () => {
    const s = new PlainTextStream();
    expect(s.push(`a\x1b${'x'.repeat(300)}`)).toContain('x'.repeat(300));
  });
});

describe('end marker', () => {
  it('is found only when complete, with status and directory', () => {
    const m = newEndMarker();
    const cwd = Buffer.from('/tmp/some dir\n').toString('base64');
    expect(findEndMarker(m, `out${m.marker}:3`, 0)).toEqual({ at: 3, partial: true });
    expect(findEndMarker(m, 'no marker here', 0)).toBeNull();
    expect(findEndMarker(m, `out${m.marker}:3:${cwd};`, 0)).toEqual({
      at: 3,
      status: 3,
      cwd: '/tmp/some dir',
    });
    expect(findEndMarker(m, `${m.marker}:0:;`, 0)).toMatchObject({ status: 0, cwd: null });
  });
});
