/**
 * Glob to RegExp, with gitignore-style anchoring: a pattern without `/` matches a name at any depth
 * (`*.ts` finds `src/a.ts`), one with `/` matches from the search root. Supports `**`, `*`, `?`,
 * `{a,b}` and `[...]`.
 */
export function globToRegExp(pattern: string): RegExp {
  const anchored = pattern.includes('/');
  const p = pattern.replace(/^\.\//, '').replace(/^\//, '');
  let re = '';
  let inBraces = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i] ?? '';
    if (c === '*') {
      if (p[i + 1] === '*') {
        const slash = p[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      inBraces++;
      re += '(?:';
    } else if (c === '}' && inBraces > 0) {
      inBraces--;
      re += ')';
    } else if (c === ',' && inBraces > 0) re += '|';
    else if (c === '[') {
      const close = p.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        re += `[${p
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else re += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(anchored ? `^${re}$` : `(?:^|/)${re}$`);
}
