import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PermissionMode } from '@shared/domain/permissions';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import { builtinTools } from '../tools/registry';
import { buildTool, type AnyTool, type ToolOutput } from '../tools/tool';
import { PermissionEngine, type EngineContext } from './engine';
import {
  bashPatternMatches,
  domainMatches,
  parseRule,
  toolMatches,
  type RuleBehavior,
  type RuleSource,
} from './rule';
import { addLocalRule, loadPermissionSources, removeLocalRule } from './settings-sources';
import { TrustStore } from './trust';

const tool = (name: string) => builtinTools().find((t) => t.name === name) as AnyTool;

function engine(
  rules: [RuleBehavior, string, RuleSource?][] = [],
  mode: PermissionMode = 'default',
  sandbox: Partial<EngineContext['sandbox']> = {},
) {
  const ctx = toolContext();
  const parsed = rules.map(([b, text, source]) => parseRule(text, source ?? 'project', b, ctx.projectRoot));
  const e = new PermissionEngine(() => ({
    rules: parsed,
    mode,
    home: '/home/tester',
    sandbox: { active: false, autoAllowBashIfSandboxed: false, excludedCommands: [], ...sandbox },
  }));
  return {
    ctx,
    bash: (command: string) => e.decide(tool('Bash'), { command }, ctx),
    run: (name: string, input: Record<string, unknown>) => e.decide(tool(name), input, ctx),
    call: (t: AnyTool, input: Record<string, unknown>) => e.decide(t, input, ctx),
    filter: () => e.filterTools(builtinTools()).map((t) => t.name),
  };
}

describe('rule syntax', () => {
  it('parses Tool and Tool(specifier), treating Tool(*) as Tool', () => {
    expect(parseRule('Bash(npm run test:*)', 'user', 'allow', '/')).toMatchObject({
      tool: 'Bash',
      specifier: 'npm run test:*',
    });
    expect(parseRule('Bash(*)', 'user', 'deny', '/')).toMatchObject({ tool: 'Bash', specifier: null });
    expect(() => parseRule('Bash(', 'user', 'allow', '/')).toThrow(/not valid/);
    expect(() => parseRule('Bash()', 'user', 'allow', '/')).toThrow(/empty/);
  });

  it('matches Bash prefixes on word boundaries and * anywhere', () => {
    expect(bashPatternMatches('ls *', 'ls -la')).toBe(true);
    expect(bashPatternMatches('ls *', 'ls')).toBe(true);
    expect(bashPatternMatches('ls *', 'lsof')).toBe(false);
    expect(bashPatternMatches('ls*', 'lsof')).toBe(true);
    expect(bashPatternMatches('npm run test:*', 'npm run test -- --watch')).toBe(true);
    expect(bashPatternMatches('git * main', 'git push origin main')).toBe(true);
    expect(bashPatternMatches('git * main', 'git push origin dev')).toBe(false);
  });

  it('matches tool names, MCP servers and domains', () => {
    expect(toolMatches('mcp__github', 'mcp__github__create_issue')).toBe(true);
    expect(toolMatches('mcp__*', 'mcp__x__y')).toBe(true);
    expect(toolMatches('Bash', 'BashOutput')).toBe(false);
    expect(domainMatches('domain:example.com', 'https://EXAMPLE.com/x')).toBe(true);
    expect(domainMatches('domain:*.example.com', 'https://a.b.example.com')).toBe(true);
    expect(domainMatches('domain:*.example.com', 'https://example.com')).toBe(false);
    expect(domainMatches('domain:example.*', 'https://example.evil.com')).toBe(false);
  });
});

describe('PermissionEngine', () => {
  it('runs read-only commands without asking and asks for everything else, saying why', async () => {
    const e = engine();
    expect(await e.bash('git status && ls -la')).toMatchObject({ behavior: 'allow', decidedBy: 'analysis' });
    const ask = await e.bash('npm test');
    expect(ask).toMatchObject({
      behavior: 'ask',
      reason: '`npm` is not a known read-only command',
      suggestions: ['Bash(npm test *)'],
    });
    expect((await e.bash('find . -exec rm {} +')).reason).toContain('`find -exec` runs a command');
  });

  it('puts deny before ask before allow, whatever the sources', async () => {
    const e = engine([
      ['allow', 'Bash(git *)', 'policy'],
      ['deny', 'Bash(git push *)', 'user'],
      ['ask', 'Bash(git commit *)', 'user'],
    ]);
    expect(await e.bash('git push origin main')).toMatchObject({
      behavior: 'deny',
      rule: { text: 'Bash(git push *)', source: 'user' },
    });
    expect(await e.bash('git commit -m x')).toMatchObject({
      behavior: 'ask',
      rule: { text: 'Bash(git commit *)' },
    });
    expect(await e.bash('git fetch')).toMatchObject({ behavior: 'allow', decidedBy: 'rule' });
  });

  it('judges compound commands part by part: a deny on any part wins, and every part must be allowed', async () => {
    const e = engine([
      ['allow', 'Bash(npm test *)'],
      ['deny', 'Bash(rm *)'],
    ]);
    expect(await e.bash('npm test && rm -rf /')).toMatchObject({ behavior: 'deny' });
    expect(await e.bash('ls $(rm -rf x)')).toMatchObject({ behavior: 'deny' }); // deny reaches into substitutions
    expect(await e.bash('npm test && curl x')).toMatchObject({ behavior: 'ask' });
    expect(await e.bash('npm test && ls')).toMatchObject({ behavior: 'allow', decidedBy: 'rule' });
    // An allow rule never approves what the analysis cannot account for.
    expect(await e.bash('npm test $(curl evil)')).toMatchObject({ behavior: 'ask' });
    expect(await e.bash('timeout 9 rm -rf x')).toMatchObject({ behavior: 'deny' }); // wrappers are peeled off
  });

  it('applies the modes: plan is read-only, bypass skips prompts but not denials, dontAsk refuses asks', async () => {
    expect(await engine([], 'plan').bash('touch x')).toMatchObject({ behavior: 'deny', decidedBy: 'mode' });
    expect(await engine([], 'plan').bash('cat x')).toMatchObject({ behavior: 'allow' });
    expect(await engine([], 'bypassPermissions').bash('touch x')).toMatchObject({
      behavior: 'allow',
      decidedBy: 'mode',
    });
    expect(await engine([['deny', 'Bash(touch *)']], 'bypassPermissions').bash('touch x')).toMatchObject({
      behavior: 'deny',
    });
    expect(await engine([['ask', 'Bash(touch *)']], 'bypassPermissions').bash('touch x')).toMatchObject({
      behavior: 'ask',
    });
    expect(await engine([], 'dontAsk').bash('touch x')).toMatchObject({
      behavior: 'deny',
      decidedBy: 'mode',
    });
  });

  it('lets sandboxed Bash run without an allow rule when autoAllowBashIfSandboxed is on, but not past deny rules', async () => {
    const sandbox = { active: true, autoAllowBashIfSandboxed: true, excludedCommands: ['docker'] };
    expect(await engine([], 'default', sandbox).bash('touch x')).toMatchObject({
      behavior: 'allow',
      decidedBy: 'sandbox',
    });
    expect(await engine([['deny', 'Bash(touch *)']], 'default', sandbox).bash('touch x')).toMatchObject({
      behavior: 'deny',
    });
    expect(await engine([], 'default', sandbox).bash('docker run x')).toMatchObject({ behavior: 'ask' });
    expect(await engine([], 'default', { ...sandbox, active: false }).bash('touch x')).toMatchObject({
      behavior: 'ask',
    });
  });

  it('matches Read/Edit path rules relative to the project, bare names at any depth, and Read denies block edits', async () => {
    const e = engine([
      ['deny', 'Read(.env)'],
      ['allow', 'Edit(./docs/**)'],
      ['deny', 'Read(//etc/shadow)'],
      ['ask', 'Edit(src/**)'],
    ]);
    const at = (p: string) => path.join(e.ctx.projectRoot, p);
    expect(await e.run('Read', { file_path: at('config/.env') })).toMatchObject({
      behavior: 'deny',
      rule: { text: 'Read(.env)' },
    });
    expect(await e.run('Edit', { file_path: at('.env'), old_string: 'a', new_string: 'b' })).toMatchObject({
      behavior: 'deny',
    });
    expect(await e.run('Read', { file_path: '/etc/shadow' })).toMatchObject({ behavior: 'deny' });
    expect(await e.run('Write', { file_path: at('docs/guide.md'), content: 'x' })).toMatchObject({
      behavior: 'allow',
      decidedBy: 'rule',
    });
    expect(
      await e.run('Edit', { file_path: at('lib/src/a.ts'), old_string: 'a', new_string: 'b' }),
    ).toMatchObject({ behavior: 'ask', decidedBy: 'rule' });
    expect(await e.run('Write', { file_path: at('other/x.md'), content: 'x' })).toMatchObject({
      behavior: 'ask',
      suggestions: ['Edit(./other/**)'],
    });
    expect(await e.run('Read', { file_path: at('README.md') })).toMatchObject({ behavior: 'allow' });
    expect(await e.run('Read', { file_path: '/var/log/syslog' })).toMatchObject({ behavior: 'ask' });
  });

  it('allows edits inside the project in acceptEdits, never outside it', async () => {
    const e = engine([], 'acceptEdits');
    expect(
      await e.run('Write', { file_path: path.join(e.ctx.projectRoot, 'a.txt'), content: 'x' }),
    ).toMatchObject({ behavior: 'allow', decidedBy: 'mode' });
    expect(await e.run('Write', { file_path: '/tmp/elsewhere.txt', content: 'x' })).toMatchObject({
      behavior: 'ask',
    });
  });

  it('matches Agent(type) rules on the call’s subagent_type, exactly; a bare Agent rule on every call', async () => {
    // A stand-in with the Agent tool's name, fields and read-only answer (the real one needs a spawner).
    const agent = buildTool({
      name: 'Agent',
      description: 'Starts a sub-agent',
      inputSchema: z.object({ description: z.string(), prompt: z.string(), subagent_type: z.string() }),
      isReadOnly: () => true,
      // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- never run: only permissions are checked
      async *call(): AsyncGenerator<never, ToolOutput> {
        return { content: '' };
      },
    }) as AnyTool;
    const decide = (rules: [RuleBehavior, string][], type: string) =>
      engine(rules).call(agent, { description: 'look', prompt: 'find x', subagent_type: type });
    // No rule: it only starts an agent, whose own calls are each checked.
    expect(await decide([], 'Explore')).toMatchObject({ behavior: 'allow', decidedBy: 'default' });
    const deny: [RuleBehavior, string][] = [['deny', 'Agent(Explore)']];
    expect(await decide(deny, 'Explore')).toMatchObject({
      behavior: 'deny',
      rule: { text: 'Agent(Explore)' },
    });
    expect(await decide(deny, 'Plan')).toMatchObject({ behavior: 'allow', decidedBy: 'default' });
    expect(await decide(deny, 'explore')).toMatchObject({ behavior: 'allow' }); // exact, not case-folded
    const ask: [RuleBehavior, string][] = [['ask', 'Agent(my-agent)']];
    expect(await decide(ask, 'my-agent')).toMatchObject({
      behavior: 'ask',
      rule: { text: 'Agent(my-agent)' },
    });
    expect(await decide(ask, 'my-agent-2')).toMatchObject({ behavior: 'allow' });
    const allow: [RuleBehavior, string][] = [['allow', 'Agent(Plan)']];
    expect(await decide(allow, 'Plan')).toMatchObject({
      behavior: 'allow',
      decidedBy: 'rule',
      rule: { text: 'Agent(Plan)' },
    });
    expect(await decide(allow, 'Explore')).toMatchObject({ behavior: 'allow', decidedBy: 'default' });
    // Deny before allow, and a bare Agent rule covers every type.
    expect(
      await decide(
        [
          ['allow', 'Agent(Plan)'],
          ['deny', 'Agent'],
        ],
        'Plan',
      ),
    ).toMatchObject({ behavior: 'deny' });
    expect(await decide([['ask', 'Agent']], 'general-purpose')).toMatchObject({ behavior: 'ask' });
  });

  it('removes tools denied outright from the tool pool', () => {
    expect(engine([['deny', 'Bash']]).filter()).not.toContain('Bash');
    expect(engine([['deny', 'Bash(rm *)']]).filter()).toContain('Bash');
  });
});

describe('permission sources', () => {
  it('reads policy, CLI, local, project and user files, merging lists; reports and skips broken ones', () => {
    const home = tempDir();
    const project = tempDir();
    mkdirSync(path.join(project, '.claude'));
    const policyFile = path.join(tempDir(), 'managed-settings.json');
    writeFileSync(policyFile, JSON.stringify({ permissions: { deny: ['Bash(curl *)'] } }));
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(npm test *)'], defaultMode: 'acceptEdits' },
        sandbox: { enabled: true, autoAllowBashIfSandboxed: true },
      }),
    );
    writeFileSync(path.join(project, '.claude', 'settings.local.json'), '{ not json');
    writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({ permissions: { ask: ['Bash(git push *)', 'Bash('] } }),
    );
    // The folder is trusted (untrusted folders are covered in settings-sources.test.ts).
    const trust = new TrustStore(path.join(tempDir(), 'trust.json'));
    trust.trustCurrent(project);
    const s = loadPermissionSources({
      home,
      projectRoot: project,
      policyFile,
      cli: { disallowedTools: ['WebFetch'] },
      trust,
    });
    expect(s.rules.map((r) => `${r.source}:${r.behavior}:${r.text}`)).toEqual([
      'policy:deny:Bash(curl *)',
      'cli:deny:WebFetch',
      'project:allow:Bash(npm test *)',
      'user:ask:Bash(git push *)',
    ]);
    expect(s.problems).toEqual([
      expect.stringContaining('settings.local.json is not valid JSON'),
      expect.stringContaining('"Bash(" is not valid'),
    ]);
    expect(s.sandbox).toMatchObject({ enabled: true, autoAllowBashIfSandboxed: true });
  });

  it('writes "Always allow" rules to .claude/settings.local.json, keeping what else is there, and removes them', () => {
    const project = tempDir();
    mkdirSync(path.join(project, '.claude'));
    const file = path.join(project, '.claude', 'settings.local.json');
    writeFileSync(file, JSON.stringify({ env: { X: '1' }, permissions: { deny: ['Bash(rm *)'] } }));
    addLocalRule(project, 'allow', 'Bash(npm test *)');
    addLocalRule(project, 'allow', 'Bash(npm test *)');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      env: { X: '1' },
      permissions: { deny: ['Bash(rm *)'], allow: ['Bash(npm test *)'] },
    });
    removeLocalRule(project, 'allow', 'Bash(npm test *)');
    expect(
      (JSON.parse(readFileSync(file, 'utf8')) as { permissions: { allow: string[] } }).permissions.allow,
    ).toEqual([]);
    expect(() => addLocalRule(project, 'allow', 'Bash(')).toThrow(/not valid/);
  });
});
