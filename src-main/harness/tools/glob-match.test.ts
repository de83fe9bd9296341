import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import {
  compileGlob,
  compileNameGlob,
  escapeGlob,
  GLOB_LIMITS,
  GlobPatternError,
  globPatternProblem,
} from './glob-match';

const m = (pattern: string, p: string) => compileGlob(pattern)(p);

describe('glob patterns (picomatch inside a segment, anchoring and ** here)', () => {
  it('match like gitignore: no slash means any depth, a slash anchors at the root', () => {
    expect(m('*.ts', 'src/a.ts')).toBe(true);
    expect(m('*.ts', 'a.ts')).toBe(true);
    expect(m('src/*.ts', 'src/deep/a.ts')).toBe(false);
    expect(m('src/*.ts', 'lib/src/a.ts')).toBe(false);
    expect(m('src/**/*.ts', 'src/deep/a.ts')).toBe(true);
    expect(m('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(m('./src/*.ts', 'src/a.ts')).toBe(true);
    expect(m('/src/*.ts', 'src/a.ts')).toBe(true);
    expect(m('file?.txt', 'file1.txt')).toBe(true);
    expect(m('file?.txt', 'file12.txt')).toBe(false);
  });

  it('treat ** as whole segments: zero or more, so dir/** covers dir itself', () => {
    expect(m('src/**', 'src')).toBe(true);
    expect(m('src/**', 'src/a/b/c.ts')).toBe(true);
    expect(m('src/**', 'srcx/a')).toBe(false);
    expect(m('**/test/**', 'a/b/test/c/d')).toBe(true);
    expect(m('a/**/b/**/c', 'a/b/c')).toBe(true);
    expect(m('a/**/b/**/c', 'a/x/y/b/z/c')).toBe(true);
    expect(m('a/**/b/**/c', 'a/x/y/z/c')).toBe(false);
    // `**` glued to text is a plain star, confined to one name.
    expect(m('a**.ts', 'abc.ts')).toBe(true);
    expect(m('/a**.ts', 'a/b.ts')).toBe(false);
  });

  it('give brace sets and character classes from picomatch', () => {
    expect(m('*.{ts,tsx}', 'x/y.tsx')).toBe(true);
    expect(m('*.{ts,tsx}', 'x/y.js')).toBe(false);
    expect(m('{src,lib}/**/*.ts', 'lib/q/r.ts')).toBe(true);
    expect(m('{src,lib}/**/*.ts', 'test/r.ts')).toBe(false);
    expect(m('v{1..3}.txt', 'v2.txt')).toBe(true);
    expect(m('file[0-9].txt', 'file7.txt')).toBe(true);
    expect(m('file[0-9].txt', 'filex.txt')).toBe(false);
    expect(m('file[!0-9].txt', 'filex.txt')).toBe(true);
    expect(m('file[^0-9].txt', 'file7.txt')).toBe(false);
    expect(m('[[:upper:]]*.md', 'README.md')).toBe(true);
    expect(m('[[:upper:]]*.md', 'readme.md')).toBe(false);
    expect(m('\\*.txt', '*.txt')).toBe(true);
    expect(m('\\*.txt', 'a.txt')).toBe(false);
  });

  it('treat dotfiles as ordinary names, as gitignore and ripgrep do, but never . or ..', () => {
    expect(m('*', '.env')).toBe(true);
    expect(m('.env', 'deep/down/.env')).toBe(true);
    expect(m('.env*', 'config/.env.local')).toBe(true);
    expect(m('**/*.pem', '.ssh/keys/id.pem')).toBe(true);
    expect(m('src/*', 'src/.hidden')).toBe(true);
    expect(m('src/*/x', 'src/../x')).toBe(false);
  });

  it('keep extglobs and leading ! as literal text (not gitignore or ripgrep syntax)', () => {
    expect(m('+(a|b).ts', 'a.ts')).toBe(false);
    expect(m('+(a|b).ts', '+(a|b).ts')).toBe(true);
    expect(m('!secret', 'public')).toBe(false);
    expect(m('!secret', '!secret')).toBe(true);
  });

  it('match the normalized path: .. in a path cannot dodge a pattern or climb out of the root', () => {
    expect(m('secret/**', 'src/../secret/.env')).toBe(true);
    expect(m('secret/**', './secret/key')).toBe(true);
    expect(m('**', '../outside')).toBe(false);
    expect(m('**/*', 'a/../../b')).toBe(false);
    expect(m('a//b', 'a/b')).toBe(true);
  });

  it('refuse hostile patterns with a typed error that says why', () => {
    const why = (p: string) => {
      try {
        compileGlob(p);
      } catch (error) {
        expect(error).toBeInstanceOf(GlobPatternError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(why('**/../**')).toMatch(/contains a "\.\." segment/);
    expect(why('a/./b')).toMatch(/contains a "\." segment/);
    expect(why('a\0b')).toMatch(/NUL character/);
    expect(why('a\0b')).not.toContain('\0');
    expect(why('x'.repeat(GLOB_LIMITS.patternChars + 1))).toMatch(/1025 characters long; at most 1024/);
    // Sets with a comma are expanded first; what the limits still hold back is picomatch's own
    // braces (`{1..3}` ranges) with wildcards beside them, and sets that list too many patterns.
    expect(why('{a,b}*a*a*b')).toBe('accepted');
    expect(why('{1..3}*a*a*b')).toMatch(/3 wildcards; with \{…\} in a segment at most 2/);
    expect(why('{1..2}*a*/{1..2}*b*/{1..2}*c*/{1..2}*d*/{1..2}*e*')).toMatch(
      /10 wildcards in segments with \{…\}; at most 8 are allowed/,
    );
    expect(why('*a*a*a*a*a*a*a*a*b')).toBe('accepted');
    expect(why('{1..2}{1..2}{1..2}{1..2}{1..2}')).toMatch(/5 \{…\} groups/);
    expect(why('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}')).toMatch(/list more than 64 patterns/);
    expect(why('{a/b}')).toMatch(/`\/` inside `\{…\}`/);
    expect(why('{a/b,c}')).toBe('accepted');
    expect(why('./')).toMatch(/names no file/);
    expect(globPatternProblem('src/**/*.ts')).toBeNull();
    expect(globPatternProblem('**/../**')).toMatch(/^it contains a "\.\." segment/);
  });

  it('never matches a path no file could have', () => {
    expect(m('**', `a/${'b'.repeat(GLOB_LIMITS.nameChars + 1)}`)).toBe(false);
    expect(m('**', 'a/'.repeat(GLOB_LIMITS.pathChars))).toBe(false);
    expect(m('**', 'a\0b')).toBe(false);
  });

  it('finishes fast on catastrophic-backtracking inputs (at the limits, hostile paths)', () => {
    const name = 'a'.repeat(GLOB_LIMITS.nameChars);
    const deep = Array.from({ length: 15 }, () => name).join('/');
    const slashes = 'a/'.repeat(2000);
    const cases: [string, string][] = [
      // Stars matched piece by piece: the RegExp alone takes minutes on the first two.
      ['**/*a*a*a*a*a*a*a*a*b', deep],
      ['**/*a*a*a*a*b/**/*a*a*a*a*b/**/*a*a*a*a*b', deep],
      // At the limits of what is left to the RegExp (braces), against every long name of a 4 kB path.
      ['**/{a,b}*a*b/**/{a,b}*a*b/**/{a,b}*a*b/**/{a,b}*a*b', deep],
      ['**/a/**/a/**/a/**/a/**/a/**/b', slashes],
      ['**/{a,aa}{a,aa}{a,aa}{a,aa}b', deep],
      ['**/*[a-z]?*[!b]?/**/x', deep],
    ];
    for (const [pattern, p] of cases) {
      const started = performance.now();
      expect(m(pattern, p)).toBe(false);
      // Generous for a loaded machine; the unguarded RegExp takes seconds to minutes here.
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });

  it('escape a literal path so the pattern matches that path only', () => {
    const odd = 'tmp/a*b?[1]{x,y}(2)!/c\\d***.txt';
    const pattern = escapeGlob(odd);
    expect(globPatternProblem(pattern)).toBeNull();
    expect(m(pattern, odd)).toBe(true);
    expect(m(pattern, 'tmp/aXb?[1]{x,y}(2)!/c\\d***.txt')).toBe(false);
    expect(m(pattern, 'tmp/a*b?[1]x(2)!/c\\d***.txt')).toBe(false);
    expect(m(escapeGlob('plain/path.txt'), 'plain/path.txt')).toBe(true);
  });

  it('match stars piece by piece exactly as the picomatch RegExp does', () => {
    // Small alphabet, so pieces overlap and repeat: where a wrong cut or greedy step would show.
    const parts = ['*', '**', 'a', 'b', '.', '?', '[ab]', '[!a]', '\\*', '[[:alpha:]]', '[]a]'];
    // (`.` and `..` are never names of a normalized path.)
    const names = ['a', 'b', '.b', 'ab', 'ba', 'aab', '.a', 'a.b', '*', 'a*b', 'abab', ']', 'bbab', 'a]b'];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let k = 0; k < 400; k++) {
      const segment = Array.from({ length: 1 + next(5) }, () => parts[next(parts.length)]).join('');
      if (/^(\.|\.\.|\*\*+)$/.test(segment)) continue; // not name patterns: refused, or `**`
      const regex = picomatch(segment, {
        dot: true,
        noextglob: true,
        nonegate: true,
        posix: true,
        windows: false,
      });
      const ours = compileGlob(`/${segment}`);
      for (const name of names) expect([segment, name, ours(name)]).toEqual([segment, name, regex(name)]);
    }
  });
});

describe('brace sets', () => {
  it('are expanded first: each alternative is a pattern of its own, `/` and wildcards included', () => {
    expect(m('{secrets/**,.env}', 'secrets/db/key')).toBe(true);
    expect(m('{secrets/**,.env}', 'app/.env')).toBe(true);
    expect(m('{secrets/**,.env}', 'app/secrets/key')).toBe(false);
    for (const p of ['a.pem', 'deep/b.key', 'c.p12']) expect(m('{*.pem,*.key,*.p12}', p), p).toBe(true);
    expect(m('{*.pem,*.key,*.p12}', 'a.pem.bak')).toBe(false);
    expect(m('src/{a,b{1,2}}.ts', 'src/b2.ts')).toBe(true);
    expect(m('src/{a,b{1,2}}.ts', 'src/b.ts')).toBe(false);
    expect(m('\\{a,b\\}', '{a,b}')).toBe(true);
    expect(m('\\{a,b\\}', 'a')).toBe(false);
    expect(m('[{]a,b}', '{a,b}')).toBe(true);
    expect(m('file{1..3}.txt', 'file2.txt')).toBe(true);
  });

  it('match in linear time whatever wildcards the alternatives hold', () => {
    const name = 'a'.repeat(GLOB_LIMITS.nameChars);
    const started = performance.now();
    expect(m('{*a*a*a*a*a*a*a*a*b,x}', name)).toBe(false);
    // Generous for a loaded machine, as above; backtracking here takes hours.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('name globs (tool names in rules)', () => {
  it('match like a path segment, brace sets expanded', () => {
    expect(compileNameGlob('mcp__github__get_*')('mcp__github__get_issue')).toBe(true);
    expect(compileNameGlob('mcp__github__get_*')('mcp__github__list_issues')).toBe(false);
    expect(compileNameGlob('mcp__{github,gitlab}__*')('mcp__gitlab__x')).toBe(true);
    expect(compileNameGlob('*')('Bash')).toBe(true);
  });

  it('match in linear time: many wildcards against a long MCP tool name do not stall', () => {
    const name = `mcp__${'a'.repeat(59)}`;
    const started = performance.now();
    expect(compileNameGlob('*a*a*a*a*a*a*a*a*b')(name)).toBe(false);
    expect(compileNameGlob('*a*a*a*a*a*a*a*a*b')(`${name}b`)).toBe(true);
    // Generous for a loaded machine; backtracking here takes billions of steps.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
