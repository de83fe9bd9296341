import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRule } from './rule';
import { pathRuleGlob } from './path-rules';
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

describe('pathRuleGlob', () => {
  const glob = (text: string, behavior: 'allow' | 'deny' = 'deny') =>
    pathRuleGlob(parseRule(text, 'project', behavior, root), root, home);
  it('anchors like the permission rules do', () => {
    expect(glob('Read(.env)')).toBe(`${root}/**/.env`);
    expect(glob('Read(./build/out.txt)')).toBe(`${root}/build/out.txt`);
    expect(glob('Read(/config/x)')).toBe(`${root}/config/x`);
    expect(glob('Read(~/notes)')).toBe(`${home}/notes`);
    expect(glob('Read(//var/log/*.log)')).toBe('/var/log/*.log');
    expect(glob('Read')).toBeNull();
  });
});
