import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { McpProjectView } from '@shared/domain/mcp';
import { createMcpManager } from '../harness/mcp/manager';
import { projectTrustState, TrustStore, trustFile } from '../harness/permissions/trust';
import { AppError } from '../platform/errors';
import { silentLogger } from '../platform/logger';
import { tempDir } from '../test-support/temp';
import { McpService } from './mcp-service';

/*
 * The app's MCP service against real MCP servers (the SDK's McpServer over stdio, run with node) and
 * the real manager: approval by workspace trust and by the person's settings, restart of a failed
 * server, enable/disable and "add a server" written into the files Claude Code reads.
 */

const SERVER = path.resolve(import.meta.dirname, '../../e2e/fixtures/mcp-echo-server.mjs');

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function setup() {
  const carapaceHome = tempDir('carapace-home-');
  const homeDir = tempDir('carapace-user-');
  const project = realpathSync(tempDir('carapace-project-'));
  const trust = new TrustStore(trustFile(carapaceHome));
  const changes: McpProjectView[] = [];
  let settingsReloads = 0;
  const service = new McpService({
    createManager: createMcpManager,
    projectPath: (id) => {
      if (id !== 'p1') throw new AppError('NOT_FOUND', `No open project has the id ${id}.`);
      return project;
    },
    homeDir,
    env: { PATH: process.env['PATH'] ?? '', ANTHROPIC_API_KEY: 'sk-secret' },
    locations: (projectRoot) => ({
      home: carapaceHome,
      projectRoot,
      policyFile: path.join(carapaceHome, 'policy.json'),
      trust,
    }),
    onChanged: (view) => changes.push(view),
    onUserSettingsWritten: () => settingsReloads++,
    timeoutMs: 15_000,
    logger: silentLogger,
  });
  onTestFinished(() => service.close());
  const server = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [SERVER], env });
  const writeMcpJson = (servers: Record<string, unknown>) =>
    writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
  const state = (name: string) => service.view('p1').servers.find((s) => s.name === name)?.state;
  return {
    service,
    project,
    homeDir,
    carapaceHome,
    trust,
    changes,
    server,
    writeMcpJson,
    state,
    reloads: () => settingsReloads,
  };
}

describe('McpService', () => {
  it("a project's server waits for approval; trusting it (as the prompt does) connects it and its tool reaches sessions", async () => {
    const t = setup();
    const calls = path.join(t.project, 'calls.txt');
    t.writeMcpJson({ echo: t.server({ MCP_ECHO_CALLS: calls }) });
    await t.service.ready('p1');
    expect(t.state('echo')).toBe('needs-approval');
    expect(t.service.tools('p1')).toEqual([]);

    // The trust prompt lists the server with its command; "Trust" accepts what it showed.
    const shown = projectTrustState(t.trust, t.project).items;
    expect(shown.map((i) => [i.kind, i.label])).toEqual([
      ['mcp', expect.stringContaining('MCP server "echo": runs')],
    ]);
    t.trust.trustShown(
      t.project,
      shown.map((i) => i.key),
    );

    // The next question sees the change: a fresh manager starts the server.
    const session = t.service.forSession('p1');
    expect(session.tools()).toEqual([]);
    await session.start();
    await until(() => t.state('echo') === 'connected', 'echo to connect');
    const tool = session.tools().find((x) => x.name === 'mcp__echo__echo');
    expect(tool).toBeDefined();
    expect(t.service.view('p1').servers[0]?.tools).toEqual([
      { name: 'echo', fullName: 'mcp__echo__echo', description: 'Repeats the text it is given' },
    ]);
    expect(t.changes.some((v) => v.servers[0]?.state === 'connected')).toBe(true);
    // A session closing does not close the project's servers.
    await session.close();
    expect(t.state('echo')).toBe('connected');
  });

  it("the trust prompt shows what changes a server's behaviour: its environment and headers, as written", () => {
    const t = setup();
    t.writeMcpJson({
      tool: { command: 'npx', args: ['-y', '@known/server'], env: { NODE_OPTIONS: '--require ./evil.js' } },
      api: {
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
      },
    });
    const labels = projectTrustState(t.trust, t.project).items.map((i) => i.label);
    expect(labels).toEqual([
      'MCP server "tool": runs npx -y @known/server; env NODE_OPTIONS=--require ./evil.js',
      'MCP server "api": connects to https://example.com/mcp; headers Authorization: Bearer ${GITHUB_TOKEN}',
    ]);
  });

  it('a .claude/settings.local.json that enables its own project servers approves nothing until trusted', async () => {
    const t = setup();
    const marker = path.join(t.project, 'started.txt');
    t.writeMcpJson({ echo: t.server({ MCP_ECHO_CALLS: marker }) });
    mkdirSync(path.join(t.project, '.claude'));
    writeFileSync(
      path.join(t.project, '.claude', 'settings.local.json'),
      JSON.stringify({ enableAllProjectMcpServers: true, enabledMcpjsonServers: ['echo'] }),
    );
    writeFileSync(
      path.join(t.project, '.claude', 'settings.json'),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    await t.service.ready('p1');
    expect(t.state('echo')).toBe('needs-approval');
    // The person's own settings do approve it.
    writeFileSync(
      path.join(t.carapaceHome, 'settings.json'),
      JSON.stringify({ enabledMcpjsonServers: ['echo'] }),
    );
    await t.service.ready('p1');
    await until(() => t.state('echo') === 'connected', 'echo to connect');
  });

  it('a failing server shows failed with its stderr in the logs; restarted once its file exists, it connects', async () => {
    const t = setup();
    const needed = path.join(t.project, 'ready.flag');
    t.writeMcpJson({ flaky: t.server({ MCP_ECHO_REQUIRES: needed }) });
    writeFileSync(
      path.join(t.carapaceHome, 'settings.json'),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    await t.service.ready('p1');
    await until(() => t.state('flaky') === 'failed', 'flaky to fail');
    expect(t.service.logs('p1', 'flaky').join('\n')).toContain('ready.flag is missing');
    writeFileSync(needed, '');
    const after = await t.service.restart('p1', 'flaky');
    expect(after.servers.find((s) => s.name === 'flaky')).toMatchObject({ state: 'connected', error: null });
    expect(t.service.tools('p1').map((x) => x.name)).toContain('mcp__flaky__echo');
  });

  it('disable writes disabledMcpjsonServers into the local settings, keeping its other keys; enable turns it back on', async () => {
    const t = setup();
    t.writeMcpJson({ echo: t.server() });
    t.trust.trustCurrent(t.project);
    mkdirSync(path.join(t.project, '.claude'));
    const local = path.join(t.project, '.claude', 'settings.local.json');
    writeFileSync(local, JSON.stringify({ permissions: { allow: ['Bash(ls)'] } }));
    await t.service.ready('p1');
    await until(() => t.state('echo') === 'connected', 'echo to connect');

    const off = t.service.setEnabled('p1', 'echo', false);
    expect(off.servers[0]?.state).toBe('disabled');
    expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({
      permissions: { allow: ['Bash(ls)'] },
      disabledMcpjsonServers: ['echo'],
    });
    expect(t.service.tools('p1')).toEqual([]);

    t.service.setEnabled('p1', 'echo', true);
    expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({ permissions: { allow: ['Bash(ls)'] } });
    await t.service.ready('p1');
    await until(() => t.state('echo') === 'connected', 'echo to connect again');
  });

  it('switching on a server that waits for approval approves it for this folder (a trust record of its entry)', async () => {
    const t = setup();
    t.writeMcpJson({ echo: t.server() });
    await t.service.ready('p1');
    expect(t.state('echo')).toBe('needs-approval');
    t.service.setEnabled('p1', 'echo', true);
    expect(projectTrustState(t.trust, t.project).items).toMatchObject([{ kind: 'mcp', state: 'accepted' }]);
    await t.service.ready('p1');
    await until(() => t.state('echo') === 'connected', 'echo to connect');
  });

  it("a server the project's own settings switch off stays off, and switching it on says why", async () => {
    const t = setup();
    t.writeMcpJson({ echo: t.server() });
    t.trust.trustCurrent(t.project);
    mkdirSync(path.join(t.project, '.claude'));
    writeFileSync(
      path.join(t.project, '.claude', 'settings.json'),
      JSON.stringify({ disabledMcpjsonServers: ['echo'] }),
    );
    await t.service.ready('p1');
    expect(t.state('echo')).toBe('disabled');
    expect(() => t.service.setEnabled('p1', 'echo', true)).toThrow(
      expect.objectContaining({
        code: 'CONFLICT',
        message: expect.stringContaining('.claude/settings.json'),
      }),
    );
    expect(t.state('echo')).toBe('disabled');
  });

  it('a user server is switched in Carapace user settings (disabledMcpServers), and the settings are re-read', async () => {
    const t = setup();
    writeFileSync(path.join(t.homeDir, '.claude.json'), JSON.stringify({ mcpServers: { mine: t.server() } }));
    await t.service.ready('p1');
    await until(() => t.state('mine') === 'connected', 'mine to connect');
    t.service.setEnabled('p1', 'mine', false);
    expect(JSON.parse(readFileSync(path.join(t.carapaceHome, 'settings.json'), 'utf8'))).toEqual({
      disabledMcpServers: ['mine'],
    });
    expect(t.reloads()).toBeGreaterThan(0);
    await t.service.ready('p1');
    expect(t.state('mine')).toBe('disabled');
  });

  it('adds a project server to .mcp.json, approved since the person wrote it, and refuses a taken name', async () => {
    const t = setup();
    writeFileSync(path.join(t.project, '.mcp.json'), JSON.stringify({ other: 1, mcpServers: {} }));
    t.service.add('p1', 'added', 'project', {
      transport: 'stdio',
      command: process.execPath,
      args: [SERVER],
    });
    expect(JSON.parse(readFileSync(path.join(t.project, '.mcp.json'), 'utf8'))).toEqual({
      other: 1,
      mcpServers: { added: { command: process.execPath, args: [SERVER] } },
    });
    await t.service.ready('p1');
    await until(() => t.state('added') === 'connected', 'added to connect');
    // Not asked about again by the trust prompt.
    expect(projectTrustState(t.trust, t.project).pending).toBe(0);
    expect(() =>
      t.service.add('p1', 'added', 'project', { transport: 'http', url: 'http://127.0.0.1:1/mcp' }),
    ).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });

  it("adds a user server to ~/.claude.json (mode 600), keeping the file's other keys", () => {
    const t = setup();
    const file = path.join(t.homeDir, '.claude.json');
    writeFileSync(file, JSON.stringify({ numStartups: 3, projects: { '/x': {} } }));
    t.service.add('p1', 'remote', 'user', { transport: 'http', url: 'http://127.0.0.1:9/mcp' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      numStartups: 3,
      projects: { '/x': {} },
      mcpServers: { remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' } },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('never overwrites a broken file, and never writes through a symlinked .mcp.json or .claude', () => {
    const t = setup();
    const mcpJson = path.join(t.project, '.mcp.json');
    writeFileSync(mcpJson, '{ not json');
    const add = () => t.service.add('p1', 'x', 'project', { transport: 'stdio', command: 'true', args: [] });
    expect(add).toThrow(expect.objectContaining({ code: 'CORRUPT_DATA' }));
    expect(readFileSync(mcpJson, 'utf8')).toBe('{ not json');

    const outside = tempDir('carapace-outside-');
    const target = path.join(outside, 'victim.json');
    writeFileSync(target, '{}');
    // The file replaced by a link to a file outside the project.
    rmSync(mcpJson);
    symlinkSync(target, mcpJson);
    expect(add).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(readFileSync(target, 'utf8')).toBe('{}');

    // .claude pointing elsewhere: switching a project server would write there.
    rmSync(mcpJson);
    t.writeMcpJson({ echo: t.server() });
    symlinkSync(outside, path.join(t.project, '.claude'));
    expect(() => t.service.setEnabled('p1', 'echo', false)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
    expect(existsSync(path.join(outside, 'settings.local.json'))).toBe(false);
  });

  it('a .mcp.json that is a FIFO or huge hangs nothing: the trust prompt and the MCP page still answer', async () => {
    const t = setup();
    const mcpJson = path.join(t.project, '.mcp.json');
    execFileSync('mkfifo', [mcpJson]);
    expect(projectTrustState(t.trust, t.project).items).toEqual([]);
    await t.service.ready('p1');
    expect(t.service.view('p1').servers).toEqual([]);
    expect(t.service.view('p1').problems.join('\n')).toContain('not a regular file');
    rmSync(mcpJson);
    // Just over the limit: refused unread, by size.
    writeFileSync(mcpJson, `{"mcpServers":{},"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`);
    expect(projectTrustState(t.trust, t.project).items).toEqual([]);
    expect(() =>
      t.service.add('p1', 'x', 'project', { transport: 'stdio', command: 'true', args: [] }),
    ).toThrow(
      expect.objectContaining({ code: 'CORRUPT_DATA', message: expect.stringContaining('byte limit') }),
    );
  });

  it('unknown projects and servers are NOT_FOUND; servers never see ANTHROPIC_ variables', async () => {
    const t = setup();
    expect(() => t.service.view('nope')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => t.service.logs('p1', 'ghost')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    const seen = path.join(t.project, 'env.txt');
    t.writeMcpJson({
      envy: {
        command: process.execPath,
        args: [SERVER],
        env: { MCP_ECHO_CALLS: seen, LEAK: '${ANTHROPIC_API_KEY}' },
      },
    });
    t.trust.trustCurrent(t.project);
    await t.service.ready('p1');
    await until(() => t.state('envy') !== 'connecting', 'envy to settle');
    const problems = t.service.view('p1').problems.join('\n');
    expect(problems).toContain('${ANTHROPIC_API_KEY}');
    expect(JSON.stringify(t.service.view('p1'))).not.toContain('sk-secret');
  });
});
