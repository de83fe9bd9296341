import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { builtinAgents } from '../agents/builtin-agents';
import type { AgentDefinition } from '../agents/definition';
import { createMcpManager } from '../mcp/manager';
import { listsTool, mcpFor } from './subagents';

/*
 * mcpFor is what both sub-agents (subagents.ts) and teammates (teammates.ts) get of the session's MCP
 * servers; here against the real manager and the SDK demo server. The -p path is in
 * cli/print-mcp-agents.test.ts.
 */

const DEMO_SERVER = path.resolve(__dirname, '../mcp/fixtures/demo-server.mjs');

async function demoManager() {
  const projectRoot = tempDir('carapace-mcp-for-project-');
  writeFileSync(
    path.join(projectRoot, '.mcp.json'),
    JSON.stringify({ mcpServers: { demo: { command: 'node', args: [DEMO_SERVER] } } }),
  );
  const manager = createMcpManager({
    projectRoot,
    homeDir: tempDir('carapace-mcp-for-home-'),
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    approveProjectServer: () => true,
  });
  onTestFinished(() => manager.close());
  await manager.start();
  return manager;
}

const agent = (over: Partial<AgentDefinition>): AgentDefinition => ({
  ...(builtinAgents().find((a) => a.name === 'general-purpose') as AgentDefinition),
  name: 'worker',
  ...over,
});

describe('mcpFor: the MCP tools a sub-agent or teammate is offered', () => {
  it('follows tools and disallowedTools by full name or server; read-only agents get none unnamed', async () => {
    const manager = await demoManager();
    const names = (def: AgentDefinition) => (mcpFor(def, manager)?.tools() ?? []).map((t) => t.name);
    expect(manager.tools().map((t) => t.name)).toContain('mcp__demo__echo');
    expect(names(agent({ tools: ['mcp__demo__echo'] }))).toEqual(['mcp__demo__echo']);
    expect(names(agent({ tools: null }))).toEqual(manager.tools().map((t) => t.name));
    expect(names(agent({ tools: null, disallowedTools: ['mcp__demo'] }))).toEqual(
      manager
        .tools()
        .filter((t) => !t.name.startsWith('mcp__demo__'))
        .map((t) => t.name),
    );
    const explore = builtinAgents().find((a) => a.name === 'Explore') as AgentDefinition;
    expect(names(explore)).toEqual([]);
    expect(names({ ...explore, tools: [...(explore.tools ?? []), 'mcp__demo__echo'] })).toEqual([
      'mcp__demo__echo',
    ]);
    // A read-only definition that lists no tools at all still gets no MCP tool.
    expect(names(agent({ readOnly: true, tools: null }))).toEqual([]);
  });

  it('keeps one list while the servers do not change (the runtime re-wraps only on change) and never closes them', async () => {
    const manager = await demoManager();
    const view = mcpFor(agent({ tools: ['mcp__demo'] }), manager);
    const first = view?.tools();
    expect(view?.tools()).toBe(first);
    await view?.close();
    expect(manager.list().map((s) => s.state)).toEqual(['connected']);
    expect(mcpFor(agent({}), undefined)).toBeUndefined();
  });

  it('listsTool: a server name is not a prefix match', () => {
    expect(listsTool(['mcp__dem'], 'mcp__demo__echo')).toBe(false);
    expect(listsTool(['mcp__demo'], 'mcp__demo__echo')).toBe(true);
    expect(listsTool(['mcp__demo__echo'], 'mcp__demo__echo_more')).toBe(false);
    expect(listsTool(['Read'], 'Read')).toBe(true);
    expect(listsTool(['mcp'], 'mcp__demo__echo')).toBe(false);
  });
});
