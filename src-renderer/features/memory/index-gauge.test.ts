import { describe, expect, it } from 'vitest';
import { countLines, indexGauge } from './index-gauge';

const lines = (n: number, width = 10) => Array.from({ length: n }, () => 'x'.repeat(width)).join('\n') + '\n';

describe('indexGauge', () => {
  it('counts lines as the loader does', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
  });

  it('is quiet well inside the limits', () => {
    expect(indexGauge(lines(100))).toMatchObject({ lines: 100, level: 'ok', message: null });
  });

  it('warns before the cut, by lines and by bytes', () => {
    expect(indexGauge(lines(160)).level).toBe('warn');
    expect(indexGauge(lines(20, 1100)).level).toBe('warn');
  });

  it('says what is lost past either limit', () => {
    const byLines = indexGauge(lines(300));
    expect(byLines.level).toBe('over');
    expect(byLines.message).toContain('100 line(s) past');
    const byBytes = indexGauge(lines(200, 130));
    expect(byBytes.lines).toBe(200);
    expect(byBytes.level).toBe('over');
    expect(byBytes.message).toContain('KB past the 25 KB limit');
  });

  it('counts bytes, not characters', () => {
    expect(indexGauge('é').bytes).toBe(2);
  });
});
