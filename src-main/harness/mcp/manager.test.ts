import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp';
import type { ToolUseContext } from '../tools/tool';
import { createMcpManager } from './manager';
import type { McpManagerOptions } from './types';

const DEMO_SERVER = path.resolve(__dirname, 'fixtures/demo-server.mjs');

function setup(servers: Record<string, unknown>, options: Partial<McpManagerOptions> = {}) {
  const projectRoot = tempDir('carapace-mcp-manager-project-');
  const homeDir = tempDir('carapace-mcp-manager-home-');
  mkdirSync(projectRoot, { recursive: true });
  writeFileSync(path.join(projectRoot, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
  const problems: string[] = [];
  const manager = createMcpManager({
    projectRoot,
    homeDir,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    approveProjectServer: () => true,
    onProblem: (m) => problems.push(m),
    ...options,
  });
  onTestFinished(() => manager.close());
  return { manager, problems, projectRoot };
}

const demo = (env: Record<string, string> = {}) => ({ command: 'node', args: [DEMO_SERVER], env });
/** Just what an MCP tool's call reads of its context. */
const ctx = () => ({ abortSignal: new AbortController().signal }) as ToolUseContext;

async function callTool(
  tool: { call: (i: unknown, c: ToolUseContext) => AsyncGenerator<unknown, unknown> },
  input: unknown,
) {
  const gen = tool.call(input, ctx());
  for (;;) {
    const next = await gen.next();
    if (next.done) return next.value;
  }
}

describe('createMcpManager', () => {
  it('lists each server with its state, tools and resources; keeps its stderr for logs', async () => {
    const { manager } = setup(
      { demo: demo(), later: demo(), off: demo() },
      {
        approveProjectServer: (name) => name !== 'later',
        disabledServer: (name) => name === 'off',
      },
    );
    await manager.start();
    const list = manager.list();
    expect(list.map((s) => [s.name, s.scope, s.transport, s.state])).toEqual([
      ['demo', 'project', 'stdio', 'connected'],
      ['later', 'project', 'stdio', 'needs-approval'],
      ['off', 'project', 'stdio', 'disabled'],
    ]);
    expect(list[0]?.tools.map((t) => t.fullName)).toEqual([
      'mcp__demo__echo',
      'mcp__demo__big',
      'mcp__demo__crash',
    ]);
    expect(list[0]?.resources).toBe(1);
    expect(manager.tools().map((t) => t.name)).toEqual([
      'mcp__demo__echo',
      'mcp__demo__big',
      'mcp__demo__crash',
      'ListMcpResourcesTool',
      'ReadMcpResourceTool',
    ]);
    // The same array while nothing changes: the request's tool prefix stays byte-identical.
    expect(manager.tools()).toBe(manager.tools());
    expect(manager.logs('demo')).toContain('demo server starting');
    expect(manager.logs('later')).toEqual([]);
  });

  it('a server that dies is marked failed, its tools go, listeners hear it; restart brings it back', async () => {
    const { manager, problems } = setup({ demo: demo() });
    await manager.start();
    let changes = 0;
    const stop = manager.onDidChange(() => changes++);
    const crash = manager.tools().find((t) => t.name === 'mcp__demo__crash');
    if (!crash) throw new Error('no crash tool');
    await expect(callTool(crash, {})).rejects.toThrow();
    await expect.poll(() => manager.list()[0]?.state).toBe('failed');
    expect(manager.list()[0]?.error).toBe('the connection closed');
    expect(manager.tools()).toEqual([]);
    expect(changes).toBeGreaterThan(0);
    expect(problems).toContain('MCP server "demo": the connection closed');
    expect(manager.logs('demo')).toContain('demo server crashing on purpose');

    const status = await manager.restart('demo');
    expect(status.state).toBe('connected');
    const echo = manager.tools().find((t) => t.name === 'mcp__demo__echo');
    if (!echo) throw new Error('no echo tool');
    expect(await callTool(echo, { text: 'back' })).toEqual({ content: 'echo: back' });
    stop();
    await expect(manager.restart('nope')).rejects.toThrow('No MCP server named "nope".');
  });

  it('servers whose names sanitise alike: the second fails by name instead of mixing tools', async () => {
    const { manager, problems } = setup({ 'a.b': demo(), a_b: demo(), '!!!': demo() });
    await manager.start();
    expect(manager.list().map((s) => [s.name, s.state])).toEqual([
      ['a.b', 'connected'],
      ['a_b', 'failed'],
      ['!!!', 'failed'],
    ]);
    expect(problems.join('\n')).toMatch(
      /"a_b": its tools would be named like those of "a.b" \(mcp__a_b__…\)/,
    );
    expect(problems.join('\n')).toMatch(/"!!!": the name has no letters or digits/);
    // Restarting a blocked one does not start it.
    expect((await manager.restart('a_b')).state).toBe('failed');
  });

  it('a command that cannot start is a failed server with the reason; start() never throws', async () => {
    const { manager } = setup({ gone: { command: '/nonexistent/mcp-server' } });
    await expect(manager.start()).resolves.toBeUndefined();
    const [s] = manager.list();
    expect(s?.state).toBe('failed');
    expect(s?.error).toMatch(/ENOENT|spawn/);
  });

  it('close ends the servers it started', async () => {
    const { manager, projectRoot } = setup({ demo: demo({ DEMO_MARKER: 'pid.txt' }) });
    await manager.start();
    const pid = Number(readFileSync(path.join(projectRoot, 'pid.txt'), 'utf8'));
    expect(() => process.kill(pid, 0)).not.toThrow();
    await manager.close();
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
