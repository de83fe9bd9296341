import { describe, expect, it } from 'vitest';
import { isSameSiteRedirect, normalizeFetchUrl } from './url-policy';
import { WebFetchError } from './web-errors';

function refusal(raw: string): WebFetchError {
  try {
    normalizeFetchUrl(raw);
  } catch (error) {
    if (error instanceof WebFetchError) return error;
    throw error;
  }
  throw new Error(`${raw} was accepted`);
}

describe('normalizeFetchUrl', () => {
  it('upgrades http to https, except for the local machine', () => {
    expect(normalizeFetchUrl('http://example.com/a?b=1').href).toBe('https://example.com/a?b=1');
    expect(normalizeFetchUrl('http://localhost:8080/x').href).toBe('http://localhost:8080/x');
    expect(normalizeFetchUrl('http://127.0.0.1:9/x').href).toBe('http://127.0.0.1:9/x');
    expect(normalizeFetchUrl('http://[::1]:9/x').href).toBe('http://[::1]:9/x');
    expect(normalizeFetchUrl('https://example.com').href).toBe('https://example.com/');
    // Not local however it is spelled: only the machine itself stays on http.
    expect(normalizeFetchUrl('http://localhost.evil.com/').protocol).toBe('https:');
  });

  it('refuses schemes other than http and https with a typed error', () => {
    for (const raw of [
      'file:///etc/passwd',
      'data:text/html,<h1>x</h1>',
      'javascript:alert(1)',
      'ftp://example.com/',
    ])
      expect(refusal(raw).code).toBe('unsupported-scheme');
  });

  it('refuses credentials in the URL, including the spelling that hides the real host', () => {
    expect(refusal('https://user:pw@example.com/').code).toBe('credentials-in-url');
    expect(refusal('https://trusted.com@evil.com/').code).toBe('credentials-in-url');
  });

  it('refuses what is not a URL', () => {
    expect(refusal('example.com/page').code).toBe('invalid-url');
    expect(refusal('').code).toBe('invalid-url');
    expect(refusal('https://').code).toBe('invalid-url');
  });
});

describe('isSameSiteRedirect', () => {
  const u = (s: string) => new URL(s);
  it('follows the same host (give or take www.), port and scheme, or an upgrade to https', () => {
    expect(isSameSiteRedirect(u('https://example.com/a'), u('https://example.com/b'))).toBe(true);
    expect(isSameSiteRedirect(u('https://example.com/a'), u('https://www.example.com/b'))).toBe(true);
    expect(isSameSiteRedirect(u('http://127.0.0.1:5000/a'), u('http://127.0.0.1:5000/b'))).toBe(true);
    expect(isSameSiteRedirect(u('http://example.com/a'), u('https://example.com/a'))).toBe(true);
  });

  it('hands back another host, port, a downgrade, or credentials', () => {
    expect(isSameSiteRedirect(u('https://example.com/'), u('https://evil.com/'))).toBe(false);
    expect(isSameSiteRedirect(u('https://example.com/'), u('https://example.com.evil.com/'))).toBe(false);
    expect(isSameSiteRedirect(u('http://127.0.0.1:5000/'), u('http://localhost:5000/'))).toBe(false);
    expect(isSameSiteRedirect(u('http://127.0.0.1:5000/'), u('http://127.0.0.1:5001/'))).toBe(false);
    expect(isSameSiteRedirect(u('https://example.com/'), u('http://example.com/'))).toBe(false);
    expect(isSameSiteRedirect(u('https://example.com/'), u('https://a:b@example.com/'))).toBe(false);
  });
});
