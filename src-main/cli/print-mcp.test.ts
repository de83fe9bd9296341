import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { startScriptedApi } from '../devtools/scripted-api/server';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { text, toolUse } from '../test-support/engine';
import { tempDir } from '../test-support/temp';
import { capturePrint, printEnv } from '../test-support/print-run';

/*
 * MCP servers through `carapace -p` against the scripted Messages API: a real stdio server (run with
 * node, written with the SDK's McpServer) and a real streamable HTTP server in this process.
 */

type StepInput = ScenarioInput['steps'][number];
const DEMO_SERVER = path.resolve(__dirname, '../harness/mcp/fixtures/demo-server.mjs');

interface Body {
  tools?: { name: string; input_schema: { properties?: Record<string, unknown> } }[];
  messages: { content: unknown }[];
}

async function setup(steps: StepInput[], extraEnv: Record<string, string> = {}) {
  const api = await startScriptedApi({
    scenario: { steps: [...steps, { times: true, reply: { content: [text('Done.')] } }] },
  });
  onTestFinished(() => api.close());
  const home = tempDir('carapace-mcp-home-');
  const project = realpathSync(tempDir('carapace-mcp-project-'));
  const file = (name: string) => path.join(project, name);
  const env: Record<string, string> = {
    ...printEnv(home, api.url),
    CALLS_FILE: file('calls.jsonl'),
    ...extraEnv,
  };
  const run = async (argv: string[]) => {
    const { code, out, err } = await capturePrint(
      [...argv, '--model', 'claude-sonnet-4-5', '--output-format', 'stream-json'],
      { env, cwd: project },
    );
    const lines = out
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const init = lines.find((l) => l['type'] === 'system' && l['subtype'] === 'init') ?? {};
    const result = lines.find((l) => l['type'] === 'result') ?? {};
    return { code, init, result, stderr: err };
  };
  const requestBody = (i: number) => api.requests[i]?.body as unknown as Body;
  const toolNames = (i: number) => (requestBody(i).tools ?? []).map((t) => t.name);
  /** The text of the tool_result blocks in request i's last message. */
  const toolResultText = (i: number) => {
    const last = requestBody(i).messages.at(-1)?.content;
    const blocks = Array.isArray(last) ? (last as { type: string; content: unknown }[]) : [];
    return blocks
      .filter((b) => b.type === 'tool_result')
      .map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)))
      .join('\n');
  };
  const calls = () =>
    existsSync(env['CALLS_FILE'] ?? '')
      ? readFileSync(env['CALLS_FILE'] ?? '', 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { text: string })
      : [];
  const writeJson = (rel: string, value: unknown) => {
    mkdirSync(path.dirname(file(rel)), { recursive: true });
    writeFileSync(file(rel), typeof value === 'string' ? value : JSON.stringify(value));
  };
  /** The person's own settings (~/.carapace/settings.json): what may approve project servers. */
  const userSettings = (value: object) =>
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify(value));
  return {
    api,
    project,
    home,
    env,
    run,
    file,
    toolNames,
    requestBody,
    toolResultText,
    calls,
    writeJson,
    userSettings,
  };
}

/** A `.mcp.json` entry running the demo server; its env shows `${VAR:-default}` expansion. */
const demoEntry = (env: Record<string, string> = {}) => ({
  command: 'node',
  args: [DEMO_SERVER],
  env: { DEMO_CALLS: '${CALLS_FILE:-/nonexistent/calls}', ...env },
});

/** The command lines of the running processes that mention `token` (Linux /proc). */
function processesWith(token: string): string[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
        return cmd.includes(token) ? [cmd.replaceAll('\0', ' ')] : [];
      } catch {
        return []; // ended while we looked
      }
    });
}

async function startHttpMcp() {
  const received: string[] = [];
  const auth: string[] = [];
  const http = createServer((req, res) => {
    auth.push(req.headers.authorization ?? '');
    // Stateless streamable HTTP (no session id generator): a server and transport per request.
    const server = new McpServer({ name: 'web', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes over HTTP.', inputSchema: { text: z.string() } },
      ({ text: said }) => {
        received.push(said);
        return { content: [{ type: 'text', text: `web echo: ${said}` }] };
      },
    );
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  http.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  onTestFinished(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const { port } = http.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, received, auth };
}

describe('carapace -p with MCP servers', () => {
  it('a project .mcp.json stdio server approved in the user settings: the model calls mcp__demo__echo and reads its result', async () => {
    const t = await setup([{ reply: { content: [toolUse('mcp__demo__echo', { text: 'hello there' })] } }]);
    t.writeJson('.mcp.json', { mcpServers: { demo: demoEntry() } });
    t.userSettings({ enabledMcpjsonServers: ['demo'] });
    const { code, init, result } = await t.run(['-p', 'echo it', '--allowedTools', 'mcp__demo']);
    expect(code).toBe(0);
    // The model was offered the tool, with the server's own JSON Schema.
    const echo = t.requestBody(0).tools?.find((d) => d.name === 'mcp__demo__echo');
    expect(echo?.input_schema.properties?.['text']).toMatchObject({
      type: 'string',
      description: 'What to echo',
    });
    expect(t.toolNames(0)).toContain('ListMcpResourcesTool');
    // The server received the call (`${CALLS_FILE:-…}` expanded from the session's environment)…
    expect(t.calls()).toEqual([{ tool: 'echo', text: 'hello there' }]);
    // …and its answer went back to the model.
    expect(t.toolResultText(1)).toContain('echo: hello there');
    // The tool definitions are byte-identical from request to request: the cached prefix holds.
    expect(JSON.stringify(t.requestBody(1).tools)).toBe(JSON.stringify(t.requestBody(0).tools));
    expect(init['tools']).toEqual(expect.arrayContaining(['mcp__demo__echo', 'mcp__demo__big']));
    expect(init['mcp_servers']).toEqual([{ name: 'demo', status: 'connected' }]);
    expect(result['permission_denials']).toEqual([]);
  });

  it('a project server nobody approved never starts, even when the project approves itself in its own settings', async () => {
    const t = await setup([{ reply: { content: [toolUse('mcp__demo__echo', { text: 'x' })] } }]);
    const marker = t.file('started.txt');
    t.writeJson('.mcp.json', { mcpServers: { demo: demoEntry({ DEMO_MARKER: marker }) } });
    // A hostile repository commits both of these: neither is the person's approval.
    t.writeJson('.claude/settings.json', {
      enableAllProjectMcpServers: true,
      enabledMcpjsonServers: ['demo'],
    });
    t.writeJson('.claude/settings.local.json', {
      enableAllProjectMcpServers: true,
      enabledMcpjsonServers: ['demo'],
    });
    const { code, init } = await t.run(['-p', 'go', '--allowedTools', 'mcp__demo']);
    expect(code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(t.toolNames(0).filter((n) => n.startsWith('mcp__'))).toEqual([]);
    expect(init['mcp_servers']).toEqual([{ name: 'demo', status: 'needs-approval' }]);
    // The call the model tried anyway found no such tool; nothing reached a server.
    expect(t.toolResultText(1)).toMatch(/mcp__demo__echo/);
    expect(t.calls()).toEqual([]);

    // Control: the same files, with the person's approval, do start it.
    const approved = await setup([]);
    const marker2 = approved.file('started.txt');
    approved.writeJson('.mcp.json', { mcpServers: { demo: demoEntry({ DEMO_MARKER: marker2 }) } });
    approved.userSettings({ enableAllProjectMcpServers: true });
    expect((await approved.run(['-p', 'go'])).code).toBe(0);
    expect(existsSync(marker2)).toBe(true);
  });

  it('a server that hangs at start is timed out (MCP_TIMEOUT) and ended; the other server and the session go on', async () => {
    // The other server is in this process (HTTP), so only the stuck one is near the small timeout.
    const web = await startHttpMcp();
    const t = await setup([{ reply: { content: [toolUse('mcp__web__echo', { text: 'still here' })] } }], {
      MCP_TIMEOUT: '1500',
    });
    // A token on its command line finds its process, however far it got before the timeout.
    const token = `stuck-${path.basename(t.project)}`;
    const stuck = { ...demoEntry({ DEMO_HANG: '1' }), args: [DEMO_SERVER, token] };
    t.writeJson('.mcp.json', { mcpServers: { stuck } });
    t.userSettings({ enableAllProjectMcpServers: true });
    const config = JSON.stringify({ mcpServers: { web: { type: 'http', url: web.url } } });
    const { code, init, stderr } = await t.run([
      '-p',
      'go',
      '--mcp-config',
      config,
      '--allowedTools',
      'mcp__web',
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/MCP server "stuck" failed to start: did not finish starting within 1500 ms/);
    expect(init['mcp_servers']).toEqual([
      { name: 'web', status: 'connected' },
      { name: 'stuck', status: 'failed' },
    ]);
    expect(web.received).toEqual(['still here']);
    expect(t.toolResultText(1)).toContain('web echo: still here');
    // It was ended: nothing of it is left running after the session.
    expect(processesWith(token)).toEqual([]);
  });

  it('a streamable HTTP server from --mcp-config JSON, with its ${VAR} header; --strict-mcp-config leaves .mcp.json out', async () => {
    const web = await startHttpMcp();
    const t = await setup([{ reply: { content: [toolUse('mcp__web__echo', { text: 'over http' })] } }], {
      WEB_TOKEN: 'sekrit',
    });
    const marker = t.file('project-server.txt');
    t.writeJson('.mcp.json', { mcpServers: { demo: demoEntry({ DEMO_MARKER: marker }) } });
    t.userSettings({ enableAllProjectMcpServers: true });
    const config = JSON.stringify({
      mcpServers: { web: { type: 'http', url: web.url, headers: { Authorization: 'Bearer ${WEB_TOKEN}' } } },
    });
    const { code, init } = await t.run([
      '-p',
      'go',
      '--mcp-config',
      config,
      '--strict-mcp-config',
      '--allowedTools',
      'mcp__web__echo',
    ]);
    expect(code).toBe(0);
    expect(web.received).toEqual(['over http']);
    expect(web.auth).toContain('Bearer sekrit');
    expect(t.toolResultText(1)).toContain('web echo: over http');
    expect(init['mcp_servers']).toEqual([{ name: 'web', status: 'connected' }]);
    expect(existsSync(marker)).toBe(false);
  });

  it('permission rules: mcp__demo denies every tool of the server, mcp__demo__echo one; without an allow rule a call is refused', async () => {
    const steps = [{ reply: { content: [toolUse('mcp__demo__echo', { text: 'nope' })] } }];
    const server = { mcpServers: { demo: demoEntry() } };

    const wholeServer = await setup(steps);
    wholeServer.writeJson('.mcp.json', server);
    wholeServer.userSettings({ enableAllProjectMcpServers: true });
    await wholeServer.run(['-p', 'go', '--disallowedTools', 'mcp__demo']);
    expect(wholeServer.toolNames(0).filter((n) => n.startsWith('mcp__demo'))).toEqual([]);
    expect(wholeServer.calls()).toEqual([]);

    const oneTool = await setup(steps);
    oneTool.writeJson('.mcp.json', server);
    oneTool.userSettings({ enableAllProjectMcpServers: true });
    await oneTool.run(['-p', 'go', '--allowedTools', 'mcp__demo', '--disallowedTools', 'mcp__demo__echo']);
    expect(oneTool.toolNames(0)).toContain('mcp__demo__big');
    expect(oneTool.toolNames(0)).not.toContain('mcp__demo__echo');
    expect(oneTool.calls()).toEqual([]);

    // No rule at all: -p cannot ask, so the call is refused and reported.
    const noRule = await setup(steps);
    noRule.writeJson('.mcp.json', server);
    noRule.userSettings({ enableAllProjectMcpServers: true });
    const { result } = await noRule.run(['-p', 'go']);
    expect(noRule.toolNames(0)).toContain('mcp__demo__echo');
    expect(noRule.calls()).toEqual([]);
    expect(result['permission_denials']).toEqual([expect.objectContaining({ tool_name: 'mcp__demo__echo' })]);
  });

  it('a result past MAX_MCP_OUTPUT_TOKENS is cut with a note; a resource is read through ReadMcpResourceTool', async () => {
    const t = await setup(
      [
        { reply: { content: [toolUse('mcp__demo__big', { n: 5000 })] } },
        { reply: { content: [toolUse('ReadMcpResourceTool', { server: 'demo', uri: 'demo://notes' })] } },
      ],
      { MAX_MCP_OUTPUT_TOKENS: '100' },
    );
    t.writeJson('.mcp.json', { mcpServers: { demo: demoEntry() } });
    t.userSettings({ enabledMcpjsonServers: ['demo'] });
    expect((await t.run(['-p', 'go', '--allowedTools', 'mcp__demo'])).code).toBe(0);
    const cut = t.toolResultText(1);
    expect(cut).toContain('x'.repeat(400));
    expect(cut).not.toContain('x'.repeat(401));
    expect(cut).toMatch(/MCP tool output cut: 5000 characters is more than the limit of 400/);
    expect(t.toolResultText(2)).toContain('the notes say hello');
  });

  it('hostile configs: a malformed .mcp.json is reported and the session goes on; odd server names are sanitised', async () => {
    const broken = await setup([]);
    broken.writeJson('.mcp.json', '{ "mcpServers": { "demo": ');
    broken.userSettings({ enableAllProjectMcpServers: true });
    const b = await broken.run(['-p', 'go']);
    expect(b.code).toBe(0);
    expect(b.stderr).toMatch(/\.mcp\.json is not valid JSON.*its MCP servers are not loaded/);
    expect(b.result['result']).toBe('Done.');

    // `__` and a trailing `_` would let "github__x"'s tools ride on a rule for mcp__github.
    const odd = await setup([{ reply: { content: [toolUse('mcp__github_x__echo', { text: 'odd' })] } }]);
    const config = JSON.stringify({
      mcpServers: {
        github__x: demoEntry(),
        'my server!': demoEntry(),
        github_: { type: 'ws', url: 'ws://x' },
      },
    });
    const { code, init, stderr } = await odd.run([
      '-p',
      'go',
      '--mcp-config',
      config,
      '--allowedTools',
      'mcp__github',
      '--allowedTools',
      'mcp__github_x',
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/MCP server "github_": transport "ws" is not supported/);
    const names = odd.toolNames(0).filter((n) => n.startsWith('mcp__'));
    expect(names).toEqual(expect.arrayContaining(['mcp__github_x__echo', 'mcp__my_server__echo']));
    expect(names.every((n) => /^mcp__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*__[A-Za-z0-9_-]+$/.test(n))).toBe(true);
    expect(odd.calls()).toEqual([{ tool: 'echo', text: 'odd' }]);
    expect(init['mcp_servers']).toEqual([
      { name: 'github__x', status: 'connected' },
      { name: 'my server!', status: 'connected' },
    ]);
  });
});
