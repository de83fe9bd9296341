import { describe, expect, it } from 'vitest';
import { resolveInside } from './web-security';

describe('resolveInside', () => {
  it('keeps paths inside the root and refuses escapes', () => {
    expect(resolveInside('/srv/app', '/index.html')).toBe('/srv/app/index.html');
    expect(resolveInside('/srv/app', '/assets/../index.html')).toBe('/srv/app/index.html');
    expect(resolveInside('/srv/app', '/../../etc/passwd')).toBe('/srv/app/etc/passwd');
    expect(resolveInside('/srv/app', '/%2e%2e/secret')).toBe('/srv/app/secret');
    expect(resolveInside('/srv/app', '/a%00b')).toBeNull();
    expect(resolveInside('/srv/app', '/%E0%A4%A')).toBeNull();
  });
});
