import { describe, expect, it } from 'vitest';
import { opensOutside, outsideUrl } from './external-links';

describe('links opened outside the app', () => {
  it('sends web and mail links out', () => {
    expect(opensOutside('https://example.com/a')).toBe(true);
    expect(opensOutside('http://example.com')).toBe(true);
    expect(opensOutside('mailto:a@b.c')).toBe(true);
    expect(opensOutside('MAILTO:a@b.c?subject=hi')).toBe(true);
  });

  it('keeps every other scheme in', () => {
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,x',
      'vscode://file/x',
      'src/a.ts',
      '',
      'https//missing-colon',
    ])
      expect(opensOutside(url), url).toBe(false);
  });
});

describe('the URL handed outside', () => {
  it('passes a mail link as its address alone, without query or fragment', () => {
    expect(outsideUrl('mailto:a@b.c?attach=/etc/passwd')).toBe('mailto:a@b.c');
    expect(outsideUrl('MAILTO:a@b.c?subject=hi&attach=~/.ssh/id_rsa#x')).toBe('mailto:a@b.c');
    expect(outsideUrl('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  it('passes web links unchanged and keeps the rest in', () => {
    expect(outsideUrl('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d');
    expect(outsideUrl('file:///etc/passwd')).toBeNull();
    expect(outsideUrl('mailto:?attach=/etc/passwd')).toBeNull();
  });
});
