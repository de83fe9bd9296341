import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { text, toolUse } from '../test-support/engine';
import { capturePrint, printEnv } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';

/*
 * MCP tools for sub-agents through `carapace -p` against the scripted Messages API, with the SDK demo
 * server on stdio: a sub-agent is offered the session's MCP tools as its definition's `tools` list
 * says, by full name or by `mcp__<server>`, and a read-only agent (Explore) none it does not name.
 */

type StepInput = ScenarioInput['steps'][number];
const DEMO_SERVER = path.resolve(__dirname, '../harness/mcp/fixtures/demo-server.mjs');

interface Body {
  tools?: { name: string }[];
  system?: unknown;
  messages: { content: unknown }[];
}

async function setup(steps: StepInput[]) {
  const api = await startScriptedApi({
    scenario: { steps: [...steps, { times: true, reply: { content: [text('Done.')] } }] },
  });
  onTestFinished(() => api.close());
  const home = tempDir('carapace-mcp-agents-home-');
  const project = realpathSync(tempDir('carapace-mcp-agents-project-'));
  const callsFile = path.join(project, 'calls.jsonl');
  const env: Record<string, string> = printEnv(home, api.url);
  // The person's own --mcp-config (cli scope): no project approval is involved.
  const mcpConfig = JSON.stringify({
    mcpServers: { demo: { command: 'node', args: [DEMO_SERVER], env: { DEMO_CALLS: callsFile } } },
  });
  const agentFile = (name: string, frontmatter: string) => {
    const dir = path.join(project, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, `${name}.md`),
      `---\nname: ${name}\ndescription: The ${name} agent.\n${frontmatter}---\nYou are the ${name} agent.\n`,
    );
  };
  const run = async (argv: string[]) => {
    const { code, err } = await capturePrint(
      [...argv, '--mcp-config', mcpConfig, '--model', 'claude-sonnet-4-5', '--output-format', 'stream-json'],
      { env, cwd: project },
    );
    return { code, stderr: err };
  };
  const body = (i: number) => api.requests[i]?.body as unknown as Body;
  const toolNames = (i: number) => (body(i).tools ?? []).map((t) => t.name);
  /** The request a sub-agent made first: the one whose system prompt is its definition's. */
  const requestOf = (agent: string) =>
    api.requests.findIndex((r) =>
      JSON.stringify((r.body as unknown as Body).system).includes(`You are the ${agent} agent.`),
    );
  const calls = () =>
    existsSync(callsFile)
      ? readFileSync(callsFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { text: string })
      : [];
  return { api, run, body, toolNames, requestOf, calls, agentFile };
}

const delegate = (agent: string, id = 'toolu_agent'): StepInput => ({
  reply: {
    content: [toolUse('Agent', { prompt: 'Echo it.', description: 'echo', subagent_type: agent }, id)],
  },
});

/** The text of the tool_result blocks in request i's last message. */
function toolResultText(b: Body): string {
  const last = b.messages.at(-1)?.content;
  const blocks = Array.isArray(last) ? (last as { type: string; content: unknown }[]) : [];
  return blocks
    .filter((x) => x.type === 'tool_result')
    .map((x) => (typeof x.content === 'string' ? x.content : JSON.stringify(x.content)))
    .join('\n');
}

describe('carapace -p: MCP tools for sub-agents', () => {
  it('an agent whose tools list mcp__demo__echo is offered it alone, calls it, and the server records the call', async () => {
    const t = await setup([
      delegate('echoer'),
      { reply: { content: [toolUse('mcp__demo__echo', { text: 'from the sub-agent' }, 'toolu_echo')] } },
      { reply: { content: [text('Echoed.')] } },
    ]);
    t.agentFile('echoer', 'tools: Read, mcp__demo__echo\n');
    const { code, stderr } = await t.run(['-p', 'delegate', '--allowedTools', 'mcp__demo']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const first = t.requestOf('echoer');
    expect(first).toBeGreaterThan(0);
    // Its own list, exactly: the server's other tools and its resource tools are not in it.
    expect(t.toolNames(first).sort()).toEqual(['Read', 'mcp__demo__echo']);
    expect(t.calls()).toEqual([{ tool: 'echo', text: 'from the sub-agent' }]);
    expect(toolResultText(t.body(first + 1))).toContain('echo: from the sub-agent');
  });

  it('mcp__demo in tools offers every tool of that server; disallowedTools takes one back out', async () => {
    const t = await setup([delegate('demo-user')]);
    t.agentFile('demo-user', 'tools: Read, mcp__demo\ndisallowedTools: mcp__demo__crash\n');
    expect((await t.run(['-p', 'delegate'])).code).toBe(0);
    const names = t.toolNames(t.requestOf('demo-user'));
    expect(names).toEqual(expect.arrayContaining(['mcp__demo__echo', 'mcp__demo__big', 'mcp__demo__grow']));
    expect(names).not.toContain('mcp__demo__crash');
    // A server named like a prefix of another is not covered: `mcp__demo` is not `mcp__dem`.
    expect(names.every((n) => !n.startsWith('mcp__') || n.startsWith('mcp__demo__'))).toBe(true);
  });

  it('Explore (read-only, its own tools list) is offered no MCP tool; general-purpose inherits them all', async () => {
    const t = await setup([
      delegate('Explore', 'toolu_explore'),
      // Explore tries the tool it was not offered: no such tool for it, and the server sees nothing.
      { reply: { content: [toolUse('mcp__demo__echo', { text: 'sneaked' }, 'toolu_sneak')] } },
      { reply: { content: [text('Explored.')] } },
      delegate('general-purpose', 'toolu_gp'),
    ]);
    expect((await t.run(['-p', 'delegate', '--allowedTools', 'mcp__demo'])).code).toBe(0);
    const main = t.toolNames(0);
    expect(main).toContain('mcp__demo__echo');
    const explore = t.toolNames(1);
    expect(explore).toContain('Read');
    expect(explore.filter((n) => n.startsWith('mcp__') || n.includes('Mcp'))).toEqual([]);
    expect(t.calls()).toEqual([]);
    expect(toolResultText(t.body(2))).toMatch(/mcp__demo__echo/);
    // The sub-agent after it: general-purpose (tools: all) has the server's tools.
    const gp = t.api.requests.findIndex(
      (r, i) => i > 3 && ((r.body as unknown as Body).tools ?? []).some((d) => d.name === 'Read'),
    );
    expect(gp).toBeGreaterThan(3);
    expect(t.toolNames(gp)).toEqual(expect.arrayContaining(['mcp__demo__echo', 'ListMcpResourcesTool']));
  });
});
