import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCarapace } from '../test-support/carapace';

/*
 * The composed app's MCP servers and the person's home: the user-scope servers come from the home
 * folder the app was given (a temporary one here, never the developer's own `~/.claude.json`), and a
 * project's server process ends when the project is forgotten, not only at shutdown.
 */

const DEMO_SERVER = path.resolve(import.meta.dirname, '../harness/mcp/fixtures/demo-server.mjs');

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The app with a user-scope demo server in its home's ~/.claude.json, its project open and the server up. */
async function withHomeServer() {
  const t = await testCarapace();
  const marker = path.join(t.userHome, 'demo.pid');
  writeFileSync(
    path.join(t.userHome, '.claude.json'),
    JSON.stringify({
      mcpServers: {
        homedemo: { command: process.execPath, args: [DEMO_SERVER], env: { DEMO_MARKER: marker } },
      },
    }),
  );
  const { services } = t.carapace;
  const projectId = services.workspace.open(t.project).project.id;
  await services.mcp.ready(projectId);
  return { t, services, projectId, marker };
}

describe('the app’s MCP servers and the person’s home', () => {
  it('a user-scope server from the given home’s ~/.claude.json runs for the project and ends when the project is forgotten', async () => {
    const { t, services, projectId, marker } = await withHomeServer();
    const view = services.mcp.view(projectId);
    // Only the temporary home's server: the developer's own ~/.claude.json is not read.
    expect(view.servers.map((s) => [s.name, s.scope, s.state])).toEqual([['homedemo', 'user', 'connected']]);
    expect(existsSync(marker)).toBe(true);
    const pid = Number(readFileSync(marker, 'utf8').trim());
    expect(alive(pid)).toBe(true);

    services.workspace.forget(t.project);
    // The server process ends with the project, while the app runs on.
    await until(() => !alive(pid), 'the forgotten project’s MCP server to end');
    expect(services.workspace.openProjects()).toEqual([]);
  });

  it('a project not forgotten keeps its server when another project is forgotten', async () => {
    const { t, services, projectId, marker } = await withHomeServer();
    const pid = Number(readFileSync(marker, 'utf8').trim());
    const other = path.join(t.userHome, 'other-project');
    mkdirSync(other);
    services.workspace.open(other);
    services.workspace.forget(other);
    // Still connected, the same process: forgetting one project leaves the others' servers alone.
    expect(services.mcp.view(projectId).servers.map((s) => s.state)).toEqual(['connected']);
    expect(alive(pid)).toBe(true);
  });
});
