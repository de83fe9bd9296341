import { describe, expect, it } from 'vitest';
import { parseRequestTarget, queryToken } from './request-target';

describe('parseRequestTarget', () => {
  it('parses origin-form targets, keeping `//host` as a path', () => {
    expect(parseRequestTarget('/assets/app.js?x=1')?.pathname).toBe('/assets/app.js');
    expect(parseRequestTarget('//evil.example/index.html')?.pathname).toBe('//evil.example/index.html');
    expect(parseRequestTarget('//[')?.pathname).toBe('//[');
  });

  it('gives null for what is not a path, including targets `new URL` throws on', () => {
    for (const target of [undefined, '', '*', 'http://[', 'http://127.0.0.1:1/', 'https://x:-1/'])
      expect(parseRequestTarget(target), String(target)).toBeNull();
  });
});

describe('queryToken', () => {
  const token = (target: string) => queryToken(parseRequestTarget(target) ?? new URL('http://x/'));

  it('reads exactly one token parameter, tolerating broken percent-encoding', () => {
    expect(token('/?token=abc')).toBe('abc');
    expect(token('/?token=%')).toBe('%');
    expect(token('/')).toBeNull();
    expect(token('/?token=a&token=b')).toBeNull();
  });
});
