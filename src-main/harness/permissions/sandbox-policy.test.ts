import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRule } from './rule';
import { pathRuleGlobs } from './path-rules';
import type { PermissionSources } from './settings-sources';
import { shellPolicy } from './sandbox-policy';

const root = '/work/proj';
const home = '/home/u';

function sources(
  rules: [string, 'allow' | 'deny' | 'ask'][],
  sandbox: Partial<PermissionSources['sandbox']> = {},
): PermissionSources {
  return {
    rules: rules.map(([text, behavior]) => parseRule(text, 'project', behavior, root)),
    problems: [],
    files: [],
    untrusted: [],
    policyError: null,
    sandbox: {
      enabled: true,
      autoAllowBashIfSandboxed: false,
      excludedCommands: [],
      allowedDomains: [],
      ...sandbox,
    },
  };
}

describe('shellPolicy', () => {
  it('writes only to the project and the session temp folder; secrets and .env files unreadable', () => {
    const p = shellPolicy(sources([]), { projectRoot: root, home, tempDir: '/tmp/carapace/s1' });
    expect(p.writable).toEqual([root, '/tmp/carapace/s1']);
    for (const secret of ['.ssh', '.aws', '.gnupg']) expect(p.denyRead).toContain(path.join(home, secret));
    expect(p.denyRead).toContain(`${root}/**/.env*`);
    expect(p.sandboxed).toBe(true);
  });

  it('adds the paths of Read deny rules (not of allow rules, not of other tools)', () => {
    const p = shellPolicy(
      sources([
        ['Read(secrets/**)', 'deny'],
        ['Read(~/.config/tokens)', 'deny'],
        ['Read(//etc/shadow)', 'deny'],
        ['Read(docs/**)', 'allow'],
        ['Edit(src/**)', 'deny'],
      ]),
      { projectRoot: root, home, tempDir: '/t' },
    );
    expect(p.denyRead).toEqual(
      expect.arrayContaining([`${root}/**/secrets/**`, `${home}/.config/tokens`, '/etc/shadow']),
    );
    expect(p.denyRead.some((d) => d.includes('docs') || d.includes('src'))).toBe(false);
  });

  it('admits the allowed domains of the sandbox block and of WebFetch allow rules', () => {
    const p = shellPolicy(
      sources(
        [
          ['WebFetch(domain:docs.rs)', 'allow'],
          ['WebFetch(domain:evil.com)', 'deny'],
        ],
        {
          allowedDomains: ['registry.npmjs.org', 'docs.rs'],
        },
      ),
      { projectRoot: root, home, tempDir: '/t' },
    );
    expect(p.allowedDomains).toEqual(['registry.npmjs.org', 'docs.rs']);
  });

  it('follows the sandbox switch and excluded commands from the settings', () => {
    const p = shellPolicy(sources([], { enabled: false, excludedCommands: ['docker'] }), {
      projectRoot: root,
      home,
      tempDir: '/t',
    });
    expect(p.sandboxed).toBe(false);
    expect(p.excludedCommands).toEqual(['docker']);
  });
});

describe('pathRuleGlobs', () => {
  const glob = (text: string, behavior: 'allow' | 'deny' = 'deny') =>
    pathRuleGlobs(parseRule(text, 'project', behavior, root), root, home);
  it('anchors like the permission rules do', () => {
    expect(glob('Read(.env)')).toEqual([`${root}/**/.env`]);
    expect(glob('Read(./build/out.txt)')).toEqual([`${root}/build/out.txt`]);
    expect(glob('Read(/config/x)')).toEqual([`${root}/config/x`]);
    expect(glob('Read(~/notes)')).toEqual([`${home}/notes`]);
    expect(glob('Read(//var/log/*.log)')).toEqual(['/var/log/*.log']);
    expect(glob('Read')).toEqual([]);
  });

  it('gives one glob per alternative of a brace set, each with its own anchor', () => {
    expect(glob('Read({secrets/**,.env})')).toEqual([`${root}/**/secrets/**`, `${root}/**/.env`]);
    expect(glob('Read({*.pem,*.key,*.p12})')).toEqual([
      `${root}/**/*.pem`,
      `${root}/**/*.key`,
      `${root}/**/*.p12`,
    ]);
    expect(glob('Read({//etc/ssl/**,~/.aws/**})')).toEqual(['/etc/ssl/**', `${home}/.aws/**`]);
  });

  it('keeps a deny whose pattern cannot be used as a deny of the whole folder it could name', () => {
    expect(glob('Read(//etc/ssl/{1..3}*a*b*c)')).toEqual(['/etc/ssl']);
    expect(glob('Read(~/.aws/../x)')).toEqual([`${home}/.aws`]);
    expect(glob('Read(a/../b)')).toEqual([root]);
    expect(glob('Read({1..3}*a*b*c)')).toEqual([root]);
    expect(() => glob('Read({1..3}*a*b*c)', 'allow')).toThrow(/cannot be used/);
  });
});
