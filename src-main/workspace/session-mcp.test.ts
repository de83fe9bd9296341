import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectTrustState } from '../harness/permissions/trust';
import { testCarapace } from '../test-support/carapace';
import { text, toolUse } from '../test-support/engine';

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const SERVER = path.resolve(import.meta.dirname, '../../e2e/fixtures/mcp-echo-server.mjs');

/*
 * MCP in app sessions, through the composed workspace against the scripted Messages API: a project's
 * `.mcp.json` server starts once the workspace trusts it, and the session's model calls its tool.
 */
describe('MCP tools in app sessions', () => {
  it("a trusted project's server gives the session mcp__echo__echo; the model's call reaches the server and its answer the model", async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'use echo' },
          reply: {
            content: [toolUse('mcp__echo__echo', { text: 'ping from the model' }, 'm1')],
            stop_reason: 'tool_use',
          },
        },
        { reply: { content: [text('The server answered.')] } },
      ],
    });
    const project = realpathSync(t.project);
    const calls = path.join(project, 'calls.txt');
    writeFileSync(
      path.join(project, '.mcp.json'),
      JSON.stringify({
        mcpServers: { echo: { command: process.execPath, args: [SERVER], env: { MCP_ECHO_CALLS: calls } } },
      }),
    );
    // The person's own rule lets the tool run without a prompt (nobody answers one in this test).
    writeFileSync(
      path.join(t.home, 'settings.json'),
      JSON.stringify({ permissions: { allow: ['mcp__echo'] } }),
    );
    const { workspace, sessions, trust, mcp } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;

    // Untrusted: listed as waiting for approval, not started.
    await mcp.ready(projectId);
    expect(mcp.view(projectId).servers).toMatchObject([{ name: 'echo', state: 'needs-approval' }]);

    trust.trustShown(
      project,
      projectTrustState(trust, project).items.map((i) => i.key),
    );
    await mcp.ready(projectId);
    expect(mcp.view(projectId).servers).toMatchObject([{ name: 'echo', state: 'connected' }]);

    sessions.send(id, 'use echo');
    await until(
      () => t.api.requests.length >= 2 && sessions.get(id).session.activity === 'idle',
      'the turn to end',
    );
    const first = t.api.requests[0]?.body as { tools?: { name: string }[] };
    expect(first.tools?.map((x) => x.name)).toContain('mcp__echo__echo');
    expect(existsSync(calls) && readFileSync(calls, 'utf8')).toBe('ping from the model\n');
    expect(JSON.stringify(t.api.requests[1]?.body.messages)).toContain('echo: ping from the model');
    expect(JSON.stringify(sessions.get(id).transcript)).toContain('The server answered.');
  });
});
