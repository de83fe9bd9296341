import { describe, expect, it } from 'vitest';
import { editRuleFor, pathRuleGlobs, pathRuleMatches, readRuleFor } from './path-rules';
import { parseRule, RuleSyntaxError, toolMatches, type PermissionRule } from './rule';

const project = '/work/proj';
const home = '/home/me';
const rule = (text: string, behavior: PermissionRule['behavior'] = 'deny', base = project) =>
  parseRule(text, 'project', behavior, base);
const covers = (text: string, target: string, behavior: PermissionRule['behavior'] = 'deny') =>
  pathRuleMatches(rule(text, behavior, '/work/proj/.claude'), target, project, home);

describe('Read/Edit path rules (Claude Code anchors over the kept matcher)', () => {
  it('anchor //abs, ~/, /settings-folder and project-relative patterns', () => {
    expect(covers('Read(//etc/**)', '/etc/ssh/sshd_config')).toBe(true);
    expect(covers('Read(//etc/**)', '/work/proj/etc/x')).toBe(false);
    expect(covers('Read(~/.ssh/**)', '/home/me/.ssh/id_rsa')).toBe(true);
    expect(covers('Read(~/.ssh/**)', '/work/proj/.ssh/id_rsa')).toBe(false);
    expect(covers('Read(/hooks/*.sh)', '/work/proj/.claude/hooks/a.sh')).toBe(true);
    expect(covers('Read(/hooks/*.sh)', '/work/proj/hooks/a.sh')).toBe(false);
    expect(covers('Read(./src/*.ts)', '/work/proj/src/a.ts')).toBe(true);
    expect(covers('Read(src/*.ts)', '/work/proj/lib/src/a.ts')).toBe(false);
  });

  it('match bare names at any depth, and src/** at any depth only in deny and ask rules', () => {
    expect(covers('Read(.env)', '/work/proj/a/b/.env')).toBe(true);
    expect(covers('Read(src/**)', '/work/proj/pkg/src/x.ts', 'deny')).toBe(true);
    expect(covers('Read(src/**)', '/work/proj/pkg/src/x.ts', 'ask')).toBe(true);
    expect(covers('Read(src/**)', '/work/proj/pkg/src/x.ts', 'allow')).toBe(false);
    expect(covers('Read(src/**)', '/work/proj/src/x.ts', 'allow')).toBe(true);
    expect(covers('Read(src/**)', '/work/proj/src', 'allow')).toBe(true);
    expect(covers('Read(./src/**)', '/work/proj/pkg/src/x.ts', 'deny')).toBe(false);
  });

  it('take brace sets, character classes and dotfiles from picomatch', () => {
    expect(covers('Read(**/*.{pem,key})', '/work/proj/certs/site.key')).toBe(true);
    expect(covers('Read(**/*.{pem,key})', '/work/proj/certs/site.crt')).toBe(false);
    expect(covers('Read(secrets[0-9].txt)', '/work/proj/x/secrets4.txt')).toBe(true);
    expect(covers('Read(secrets[0-9].txt)', '/work/proj/x/secretsA.txt')).toBe(false);
    expect(covers('Read(config/*)', '/work/proj/config/.env')).toBe(true);
  });

  it('refuse an unusable path pattern in an allow rule when the rule is read, in words', () => {
    expect(() => rule('Read(**/../**)', 'allow')).toThrow(RuleSyntaxError);
    expect(() => rule('Read(**/../**)', 'allow')).toThrow(
      /Permission rule "Read\(\*\*\/\.\.\/\*\*\)" is not valid: its path pattern cannot be used: it contains a "\.\." segment/,
    );
    expect(() => rule('Edit(//tmp/{1..3}*a*b*c)', 'allow')).toThrow(/3 wildcards; with \{…\} in a segment/);
    expect(rule('Read(**/*secret*key*)').specifier).toBe('**/*secret*key*');
    expect(() => rule(`Read(${'x'.repeat(2000)})`, 'allow')).toThrow(/2000 characters long/);
    // Bash specifiers are not path patterns: `..` and many stars stay allowed there.
    expect(rule('Bash(cd .. && ls * * *)').specifier).toBe('cd .. && ls * * *');
  });

  it('keep an unusable deny or ask rule, saying so, covering everything under its anchor', () => {
    for (const behavior of ['deny', 'ask'] as const) {
      const kept = rule('Read(**/../**)', behavior);
      expect(kept.unusable).toMatch(
        /"Read\(\*\*\/\.\.\/\*\*\)" has a path pattern that cannot be used: it contains a "\.\." segment/,
      );
      expect(pathRuleMatches(kept, '/work/proj/src/a.ts', project, home)).toBe(true);
    }
    expect(rule('Read(**/../**)', 'deny').unusable).toMatch(/denies everything Read touches/);
    expect(rule('Read(.env)').unusable).toBeUndefined();
  });

  it('expand brace sets, so sets with `/` or several wildcards work as the patterns they list', () => {
    const secrets = rule('Read({secrets/**,.env})');
    expect(secrets.unusable).toBeUndefined();
    expect(pathRuleMatches(secrets, '/work/proj/secrets/db/key', project, home)).toBe(true);
    expect(pathRuleMatches(secrets, '/work/proj/app/.env', project, home)).toBe(true);
    expect(pathRuleMatches(secrets, '/work/proj/src/a.ts', project, home)).toBe(false);
    const keys = rule('Read({*.pem,*.key,*.p12})');
    expect(keys.unusable).toBeUndefined();
    for (const file of ['/work/proj/a.pem', '/work/proj/deep/b.key', '/work/proj/c.p12'])
      expect(pathRuleMatches(keys, file, project, home), file).toBe(true);
    expect(pathRuleMatches(keys, '/work/proj/a.pem.txt', project, home)).toBe(false);
    const anchored = rule('Read({//etc/ssl/**,~/.aws/**})');
    expect(pathRuleMatches(anchored, '/etc/ssl/private/k', project, home)).toBe(true);
    expect(pathRuleMatches(anchored, '/home/me/.aws/credentials', project, home)).toBe(true);
    expect(pathRuleMatches(anchored, '/etc/passwd', project, home)).toBe(false);
  });

  it('fail closed on a pattern that slipped past the check: deny and ask cover all, allow nothing', () => {
    const raw = (behavior: PermissionRule['behavior']): PermissionRule => ({
      source: 'session',
      behavior,
      text: 'Read(a/../b)',
      tool: 'Read',
      specifier: 'a/../b',
      base: project,
    });
    expect(pathRuleMatches(raw('deny'), '/work/proj/x', project, home)).toBe(true);
    expect(pathRuleMatches(raw('ask'), '/work/proj/x', project, home)).toBe(true);
    expect(pathRuleMatches(raw('allow'), '/work/proj/b', project, home)).toBe(false);
  });

  it('stay fast on a hostile path under a rule at the limits', () => {
    const target = `/work/proj/${Array.from({ length: 15 }, () => 'a'.repeat(255)).join('/')}`;
    const started = performance.now();
    expect(covers('Read(**/*a*a*a*a*b/**/*a*a*a*a*b/**/*a*a*a*a*b)', target)).toBe(false);
    expect(covers('Read(**/{a,b}*a*b/**/{a,b}*a*b/**/{a,b}*a*b/**/{a,b}*a*b)', target)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('give the sandbox the same anchors as absolute globs', () => {
    expect(pathRuleGlobs(rule('Read(.env)'), project, home)).toEqual(['/work/proj/**/.env']);
    expect(pathRuleGlobs(rule('Read(~/.aws/**)'), project, home)).toEqual(['/home/me/.aws/**']);
    expect(pathRuleGlobs(rule('Read(src/**)', 'allow'), project, home)).toEqual(['/work/proj/src/**']);
  });
});

describe('suggested rules for one path', () => {
  it('escape glob characters, so approving a file allows that file only', () => {
    const odd = '/tmp/a*b/[x] {1,2}.txt';
    const text = readRuleFor(odd);
    expect(text).toBe('Read(//tmp/a\\*b/\\[x\\] \\{1,2\\}.txt)');
    const allow = rule(text, 'allow');
    expect(pathRuleMatches(allow, odd, project, home)).toBe(true);
    expect(pathRuleMatches(allow, '/tmp/aXb/x 1.txt', project, home)).toBe(false);
    expect(readRuleFor('/etc/hosts')).toBe('Read(//etc/hosts)');
  });

  it('suggest Edit rules for a project folder, escaped, and the root as ./**', () => {
    expect(editRuleFor(project, project)).toBe('Edit(./**)');
    expect(editRuleFor(project, `${project}/src/app`)).toBe('Edit(./src/app/**)');
    const text = editRuleFor(project, `${project}/[gen]`);
    expect(text).toBe('Edit(./\\[gen\\]/**)');
    const allow = rule(text, 'allow');
    expect(pathRuleMatches(allow, `${project}/[gen]/a.ts`, project, home)).toBe(true);
    expect(pathRuleMatches(allow, `${project}/g/a.ts`, project, home)).toBe(false);
  });
});

describe('tool-name globs', () => {
  it('match names with picomatch: * anywhere, nothing else special', () => {
    expect(toolMatches('*', 'Bash')).toBe(true);
    expect(toolMatches('mcp__*', 'mcp__github__get_issue')).toBe(true);
    expect(toolMatches('mcp__github__get_*', 'mcp__github__get_issue')).toBe(true);
    expect(toolMatches('mcp__github__get_*', 'mcp__github__create_issue')).toBe(false);
    expect(toolMatches('mcp__github', 'mcp__github__x')).toBe(true);
    expect(toolMatches('B*', 'Read')).toBe(false);
  });
});
