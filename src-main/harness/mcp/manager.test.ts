import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { testMcpManager } from '../../test-support/mcp-manager';
import { tempDir } from '../../test-support/temp';
import type { ToolUseContext } from '../tools/tool';
import { MAX_SERVER_TOOLS } from './manager';
import type { McpManagerOptions } from './types';

const DEMO_SERVER = path.resolve(__dirname, 'fixtures/demo-server.mjs');

function setup(servers: Record<string, unknown>, options: Partial<McpManagerOptions> = {}) {
  const projectRoot = tempDir('carapace-mcp-manager-project-');
  const homeDir = tempDir('carapace-mcp-manager-home-');
  mkdirSync(projectRoot, { recursive: true });
  writeFileSync(path.join(projectRoot, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
  const { manager, problems } = testMcpManager(projectRoot, homeDir, options);
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

/** A server that speaks only the old HTTP+SSE transport (GET /sse, POST /messages). */
async function startSseOnly() {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see the import
  const transports = new Map<string, SSEServerTransport>();
  const paths: string[] = [];
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    paths.push(`${req.method ?? ''} ${url.pathname}`);
    if (req.method === 'GET' && url.pathname === '/sse') {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- see the import
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      const server = new McpServer({ name: 'old', version: '1.0.0' });
      server.registerTool('ping', { description: 'Pong.', inputSchema: { n: z.number() } }, ({ n }) => ({
        content: [{ type: 'text', text: `pong ${n}` }],
      }));
      void server.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/messages' && transport) {
      void transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  http.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  onTestFinished(async () => {
    for (const t of transports.values()) await t.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sse`, paths };
}

describe('createMcpManager', () => {
  it('an "http" server that only speaks SSE is reached over SSE, on a fresh client', async () => {
    const old = await startSseOnly();
    const { manager } = setup(
      {},
      { cliConfigs: [JSON.stringify({ mcpServers: { old: { type: 'http', url: old.url } } })] },
    );
    await manager.start();
    expect(manager.list().map((s) => [s.name, s.scope, s.transport, s.state])).toEqual([
      ['old', 'cli', 'sse', 'connected'],
    ]);
    // Streamable HTTP was tried first (a POST to the URL), then SSE.
    expect(old.paths[0]).toBe('POST /sse');
    expect(old.paths).toContain('GET /sse');
    expect(manager.logs('old').join('\n')).toMatch(/streamable HTTP failed .*; trying SSE/);
    const ping = manager.tools().find((t) => t.name === 'mcp__old__ping');
    if (!ping) throw new Error('no ping tool');
    expect(await callTool(ping, { n: 7 })).toEqual({ content: 'pong 7' });
  });

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
      'mcp__demo__grow',
      'mcp__demo__env',
    ]);
    expect(list[0]?.resources).toBe(1);
    expect(manager.tools().map((t) => t.name)).toEqual([
      'mcp__demo__echo',
      'mcp__demo__big',
      'mcp__demo__crash',
      'mcp__demo__grow',
      'mcp__demo__env',
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

  it('a server that announces a changed tool list (tools/list_changed) has its new tools offered', async () => {
    const { manager } = setup({ demo: demo() });
    await manager.start();
    let changes = 0;
    manager.onDidChange(() => changes++);
    const before = manager.tools();
    const grow = before.find((t) => t.name === 'mcp__demo__grow');
    if (!grow) throw new Error('no grow tool');
    expect(await callTool(grow, {})).toEqual({ content: 'grown' });
    await expect.poll(() => manager.tools().map((t) => t.name)).toContain('mcp__demo__extra');
    expect(changes).toBeGreaterThan(0);
    expect(manager.list()[0]?.tools.map((t) => t.name)).toContain('extra');
    // The new tool goes after the ones before it: the old prefix of the tool list is unchanged.
    expect(
      manager
        .tools()
        .map((t) => t.name)
        .slice(0, 4),
    ).toEqual(before.map((t) => t.name).slice(0, 4));
    const extra = manager.tools().find((t) => t.name === 'mcp__demo__extra');
    if (!extra) throw new Error('no extra tool');
    expect(await callTool(extra, {})).toEqual({ content: 'extra here' });
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

  it('tools with a name too long for the API or a schema too big for every request are left out, by name', async () => {
    const { manager, problems } = setup({ demo: demo({ DEMO_HOSTILE_TOOLS: '1' }) });
    await manager.start();
    expect(manager.tools().map((t) => t.name)).toEqual([
      'mcp__demo__echo',
      'mcp__demo__big',
      'mcp__demo__crash',
      'mcp__demo__grow',
      'mcp__demo__env',
      'ListMcpResourcesTool',
      'ReadMcpResourceTool',
    ]);
    expect(problems.join('\n')).toMatch(
      /tool "huge_schema" left out \(its input schema is over 100000 characters/,
    );
    expect(problems.join('\n')).toMatch(/tool "n{70}" left out \(mcp__demo__n{70} is over 64 characters\)/);
    // A hostile name is shown escaped: no escape sequence reaches a terminal, no line is forged.
    const hostile = problems.find((p) => p.includes('pwned'));
    expect(hostile).toContain('⟨U+001B⟩]0;pwned⟨U+0007⟩\\ncarapace: forged');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    const controls = /[\u0000-\u001f]/;
    for (const p of problems) expect(controls.test(p)).toBe(false);
  });

  it('a server offering thousands of tools, or schemas that together fill the context, is cut to a budget, said once', async () => {
    const flood = setup({ demo: demo({ DEMO_MANY_TOOLS: '3000' }) });
    await flood.manager.start();
    const names = flood.manager.tools().map((t) => t.name);
    expect(names.filter((n) => n.startsWith('mcp__demo__')).length).toBe(MAX_SERVER_TOOLS);
    expect(names).toContain('mcp__demo__echo');
    const said = flood.problems.filter((p) => p.includes('left out'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/tools past the first 200 .* left out \(2805 of them/);

    const wide = setup({ demo: demo({ DEMO_MANY_TOOLS: '10', DEMO_TOOL_SCHEMA_CHARS: '60000' }) });
    await wide.manager.start();
    const kept = wide.manager.tools().filter((t) => t.name.startsWith('mcp__demo__many_'));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(10);
    expect(wide.problems.join('\n')).toMatch(/over 400000 characters of schemas/);
  });

  it("a stdio server gets the safe variables of the session's environment, its own env and CLAUDE_PROJECT_DIR, never the session's secrets", async () => {
    const { manager, projectRoot } = setup(
      { demo: demo({ OWN_SETTING: 'yes' }) },
      {
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: '/home/someone',
          ANTHROPIC_API_KEY: 'sk-secret',
          GITHUB_TOKEN: 'ghp-secret',
        },
      },
    );
    await manager.start();
    const env = manager.tools().find((t) => t.name === 'mcp__demo__env');
    if (!env) throw new Error('no env tool');
    const out = (await callTool(env, {})) as { content: string };
    const seen = JSON.parse(out.content) as { names: string[]; dir: string; home: string };
    expect(seen.names).toEqual(expect.arrayContaining(['PATH', 'HOME', 'OWN_SETTING', 'CLAUDE_PROJECT_DIR']));
    expect(seen.names).not.toContain('ANTHROPIC_API_KEY');
    expect(seen.names).not.toContain('GITHUB_TOKEN');
    expect(seen.dir).toBe(projectRoot);
    // Taken from the session's environment, not from this process's.
    expect(seen.home).toBe('/home/someone');
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
