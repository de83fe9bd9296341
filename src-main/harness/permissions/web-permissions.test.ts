import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '@shared/domain/permissions';
import { toolContext } from '../../test-support/tool-context';
import { builtinTools } from '../tools/registry';
import type { AnyTool } from '../tools/tool';
import { PermissionEngine } from './engine';
import { parseRule, type RuleBehavior } from './rule';

/*
 * WebFetch and WebSearch decisions: read-only tools that still leave the machine, so a domain no rule
 * allows is asked about (Claude Code's behaviour), with `WebFetch(domain:…)` rules deciding.
 */

const tool = (name: string) => builtinTools().find((t) => t.name === name) as AnyTool;

function engine(rules: [RuleBehavior, string][] = [], mode: PermissionMode = 'default') {
  const ctx = toolContext();
  const parsed = rules.map(([b, text]) => parseRule(text, 'user', b, ctx.projectRoot));
  const e = new PermissionEngine(() => ({
    rules: parsed,
    mode,
    home: '/home/tester',
    sandbox: { active: false, autoAllowBashIfSandboxed: false, excludedCommands: [] },
  }));
  return {
    fetch: (url: string) => e.decide(tool('WebFetch'), { url, prompt: 'p' }, ctx),
    search: () => e.decide(tool('WebSearch'), { query: 'q q' }, ctx),
  };
}

describe('WebFetch permissions', () => {
  it('asks about a domain no rule allows, offering the domain rule', async () => {
    const d = await engine().fetch('https://Docs.Example.com./page');
    expect(d).toMatchObject({
      behavior: 'ask',
      decidedBy: 'default',
      reason: 'WebFetch would fetch from docs.example.com',
      suggestions: ['WebFetch(domain:docs.example.com)'],
    });
  });

  it('allows what a domain rule covers, by host only: a subdomain pattern not the apex, a lookalike never', async () => {
    const e = engine([['allow', 'WebFetch(domain:*.example.com)']]);
    expect((await e.fetch('https://a.b.example.com/x')).behavior).toBe('allow');
    expect((await e.fetch('http://docs.example.com/x')).behavior).toBe('allow');
    expect((await e.fetch('https://example.com/')).behavior).toBe('ask');
    expect((await e.fetch('https://docs.example.com.evil.com/')).behavior).toBe('ask');
    // The host is what follows the @: a rule for the name before it does not cover it.
    const hidden = await e.fetch('https://docs.example.com@evil.com/');
    expect(hidden.behavior).toBe('ask');
    expect(hidden.reason).toBe('WebFetch would fetch from evil.com');
  });

  it('a deny or ask rule for the domain wins over a bare allow', async () => {
    const e = engine([
      ['allow', 'WebFetch'],
      ['deny', 'WebFetch(domain:evil.com)'],
      ['ask', 'WebFetch(domain:internal.example)'],
    ]);
    expect(await e.fetch('https://evil.com/x')).toMatchObject({
      behavior: 'deny',
      reason: 'denied by the rule WebFetch(domain:evil.com) (user settings)',
    });
    expect((await e.fetch('https://internal.example/')).behavior).toBe('ask');
    expect((await e.fetch('https://fine.example/')).behavior).toBe('allow');
  });

  it('asks in plan and acceptEdits modes, is refused in dontAsk, allowed in bypass (a deny still wins there)', async () => {
    expect((await engine([], 'plan').fetch('https://example.com')).behavior).toBe('ask');
    expect((await engine([], 'acceptEdits').fetch('https://example.com')).behavior).toBe('ask');
    expect((await engine([], 'dontAsk').fetch('https://example.com')).behavior).toBe('deny');
    expect((await engine([], 'bypassPermissions').fetch('https://example.com')).behavior).toBe('allow');
    const denied = engine([['deny', 'WebFetch(domain:example.com)']], 'bypassPermissions');
    expect((await denied.fetch('https://example.com')).behavior).toBe('deny');
  });

  it('asks about a URL it cannot read, offering no rule', async () => {
    const d = await engine([['allow', 'WebFetch(domain:example.com)']]).fetch('not a url');
    expect(d).toMatchObject({
      behavior: 'ask',
      reason: 'WebFetch would fetch from an address that cannot be read',
      suggestions: [],
    });
  });
});

describe('WebSearch permissions', () => {
  it('asks unless a rule allows it', async () => {
    expect(await engine().search()).toMatchObject({ behavior: 'ask', suggestions: ['WebSearch'] });
    expect((await engine([['allow', 'WebSearch']]).search()).behavior).toBe('allow');
    expect((await engine([['deny', 'WebSearch']], 'bypassPermissions').search()).behavior).toBe('deny');
    expect((await engine([], 'bypassPermissions').search()).behavior).toBe('allow');
  });
});
