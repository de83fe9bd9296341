import { describe, expect, it } from 'vitest';
import { CACHE_TTL_MS, FetchCache } from './fetch-cache';

const entry = (url: string) => ({ url, markdown: `# ${url}`, notes: [] });

describe('FetchCache', () => {
  it('gives a page back for 15 minutes, then fetches again', () => {
    let now = 1_000_000;
    const cache = new FetchCache(() => now);
    cache.set('https://a.example/', entry('https://a.example/'));
    now += CACHE_TTL_MS;
    expect(cache.get('https://a.example/')?.markdown).toBe('# https://a.example/');
    now += 1;
    expect(cache.get('https://a.example/')).toBeNull();
    expect(cache.get('https://b.example/')).toBeNull();
  });

  it('keeps at most 50 pages, dropping the oldest first', () => {
    const cache = new FetchCache(() => 0);
    for (let i = 0; i < 51; i++) cache.set(`https://e.example/${i}`, entry(`https://e.example/${i}`));
    expect(cache.get('https://e.example/0')).toBeNull();
    expect(cache.get('https://e.example/1')).not.toBeNull();
    expect(cache.get('https://e.example/50')).not.toBeNull();
  });
});
