import { describe, expect, it } from 'vitest';
import { countLines, memoryIndexLimitNotice, readMemoryIndex } from './memory-index';

const lines = (n: number, width = 10) =>
  Array.from({ length: n }, (_, i) => `- entry ${String(i + 1).padStart(width - 8, '0')}`).join('\n') + '\n';

describe('readMemoryIndex', () => {
  it('passes an index within both limits through unchanged', () => {
    const text = lines(200);
    expect(readMemoryIndex(text)).toEqual({ text, truncated: false });
  });

  it('cuts 300 lines to the first 200 and appends a warning', () => {
    const r = readMemoryIndex(lines(300));
    expect(r.truncated).toBe(true);
    if (!r.truncated) return;
    expect(r.lines).toBe(300);
    expect(r.text.startsWith(lines(200))).toBe(true);
    expect(r.text).not.toContain('entry 201');
    expect(r.warning).toMatch(/300 lines/);
    expect(r.text.trimEnd().endsWith(r.warning)).toBe(true);
  });

  it('cuts 200 long lines over 25,000 bytes at the last newline that fits', () => {
    const text = lines(200, 200); // about 201 bytes a line: 40 KB
    const r = readMemoryIndex(text);
    expect(r.truncated).toBe(true);
    if (!r.truncated) return;
    const kept = r.text.slice(0, r.text.indexOf(r.warning)).trimEnd() + '\n';
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(25_000);
    expect(text.startsWith(kept)).toBe(true);
    expect(countLines(kept)).toBe(Math.floor(25_000 / 201));
    expect(r.warning).toMatch(/Rewrite MEMORY\.md shorter/);
  });

  it('never splits a multi-byte character', () => {
    const text = Array.from({ length: 100 }, () => 'é'.repeat(150)).join('\n');
    const r = readMemoryIndex(text);
    expect(r.text).not.toContain('\uFFFD');
    expect(r.truncated).toBe(true);
  });
});

describe('memoryIndexLimitNotice', () => {
  it('says nothing within the limits and asks for a rewrite past either', () => {
    expect(memoryIndexLimitNotice(lines(10))).toBeNull();
    expect(memoryIndexLimitNotice(lines(201))).toMatch(/Rewrite MEMORY\.md shorter/);
    expect(memoryIndexLimitNotice('x'.repeat(25_001))).toMatch(/25,001 bytes/);
  });
});
