import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { loadServerConfigs, MAX_CONFIG_BYTES } from './config';

function setup() {
  const projectRoot = tempDir('carapace-mcp-config-project-');
  const homeDir = tempDir('carapace-mcp-config-home-');
  const write = (file: string, value: unknown) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  };
  const mcpJson = path.join(projectRoot, '.mcp.json');
  const userJson = path.join(homeDir, '.claude.json');
  const load = (extra: { cliConfigs?: string[]; strict?: boolean; env?: NodeJS.ProcessEnv } = {}) =>
    loadServerConfigs({ projectRoot, homeDir, env: extra.env ?? {}, ...extra });
  return { projectRoot, homeDir, write, mcpJson, userJson, load };
}

describe('loadServerConfigs', () => {
  it('takes each server whole from the highest source: --mcp-config > local > project > user', () => {
    const t = setup();
    t.write(t.userJson, {
      mcpServers: {
        a: { command: 'user-a' },
        b: { command: 'user-b' },
        c: { command: 'user-c' },
        d: { command: 'user-d' },
      },
      projects: { [t.projectRoot]: { mcpServers: { b: { command: 'local-b' } } } },
    });
    t.write(t.mcpJson, {
      mcpServers: { b: { command: 'project-b' }, c: { command: 'project-c', args: ['x'] } },
    });
    const { servers, problems } = t.load({
      cliConfigs: [JSON.stringify({ mcpServers: { d: { type: 'http', url: 'http://127.0.0.1:1/mcp' } } })],
    });
    expect(problems).toEqual([]);
    const by = Object.fromEntries(servers.map((s) => [s.name, s]));
    expect(by['a']).toMatchObject({ scope: 'user', config: { command: 'user-a' }, configFile: t.userJson });
    expect(by['b']).toMatchObject({ scope: 'local', config: { command: 'local-b' } });
    expect(by['c']).toMatchObject({
      scope: 'project',
      config: { command: 'project-c', args: ['x'] },
      configFile: t.mcpJson,
    });
    expect(by['d']).toMatchObject({
      scope: 'cli',
      config: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: {} },
    });
    expect(by['d']?.configFile).toBeUndefined();
  });

  it('--strict-mcp-config reads only --mcp-config; a file path is read relative to the project', () => {
    const t = setup();
    t.write(t.mcpJson, { mcpServers: { p: { command: 'p' } } });
    t.write(t.userJson, { mcpServers: { u: { command: 'u' } } });
    t.write(path.join(t.projectRoot, 'extra.json'), {
      mcpServers: { e: { type: 'sse', url: 'https://h/sse' } },
    });
    const { servers } = t.load({ cliConfigs: ['extra.json'], strict: true });
    expect(servers.map((s) => [s.name, s.scope, s.config.type])).toEqual([['e', 'cli', 'sse']]);
  });

  it('expands ${VAR} and ${VAR:-default} in command, args, env, url and headers, and names the unset ones', () => {
    const t = setup();
    t.write(t.mcpJson, {
      mcpServers: {
        s: {
          command: '${BIN:-node}',
          args: ['${DIR}/server.js', '--key=${KEY}'],
          env: { K: '${KEY:-none}' },
        },
        h: {
          type: 'http',
          url: '${BASE:-https://api.example.com}/mcp',
          headers: { Authorization: 'Bearer ${TOKEN}' },
        },
      },
    });
    const { servers, problems } = t.load({ env: { DIR: '/srv', TOKEN: 'abc' } });
    expect(servers[0]?.config).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['/srv/server.js', '--key=${KEY}'],
      env: { K: 'none' },
    });
    expect(servers[1]?.config).toEqual({
      type: 'http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer abc' },
    });
    expect(problems).toEqual([expect.stringMatching(/MCP server "s": \$\{KEY\} not set; left as written/)]);
  });

  it('a malformed file is one clear problem; the other sources still load', () => {
    const t = setup();
    t.write(t.mcpJson, '{"mcpServers": {');
    t.write(t.userJson, { mcpServers: { u: { command: 'u' } } });
    const { servers, problems } = t.load({ cliConfigs: ['{not json', 'missing.json'] });
    expect(servers.map((s) => s.name)).toEqual(['u']);
    expect(problems).toEqual([
      expect.stringMatching(/^--mcp-config JSON is not valid JSON: .*; its MCP servers are not loaded$/),
      expect.stringMatching(/--mcp-config .*missing\.json does not exist/),
      expect.stringMatching(/\.mcp\.json is not valid JSON: .*; its MCP servers are not loaded$/),
    ]);
  });

  it('bad entries are skipped by name: unknown transport, ws, no command, bad args, non-http URL, bad env values', () => {
    const t = setup();
    t.write(t.mcpJson, {
      mcpServers: {
        ws: { type: 'ws', url: 'wss://x' },
        nothing: {},
        args: { command: 'x', args: 'not-a-list' },
        file: { type: 'http', url: 'file:///etc/passwd' },
        list: ['nope'],
        ok: { command: 'ok', env: { GOOD: 'g', BAD: 5 } },
      },
    });
    const { servers, problems } = t.load();
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    expect(servers[0]?.config).toMatchObject({ env: { GOOD: 'g' } });
    expect(problems.join('\n')).toMatch(/"ws": transport "ws" is not supported/);
    expect(problems.join('\n')).toMatch(/"nothing": transport null is not supported/);
    expect(problems.join('\n')).toMatch(/"args": "args" must be a list of strings/);
    expect(problems.join('\n')).toMatch(/"file": "file:\/\/\/etc\/passwd" is not an http\(s\) URL/);
    expect(problems.join('\n')).toMatch(/"list" must be an object/);
    expect(problems.join('\n')).toMatch(/"ok": env\.BAD must be a string/);
  });

  it('a hostile .mcp.json: a FIFO, a link to a device, or a huge file is refused without reading it', () => {
    const fifo = setup();
    execFileSync('mkfifo', [fifo.mcpJson]);
    // Reading a FIFO nobody writes would block the session forever.
    expect(fifo.load().problems).toEqual([expect.stringMatching(/is not a regular file/)]);

    const device = setup();
    symlinkSync('/dev/zero', device.mcpJson);
    // Refused before it is opened: the link leads out of the project.
    expect(device.load().problems).toEqual([expect.stringMatching(/is a link leading out of the project/)]);

    const huge = setup();
    huge.write(huge.mcpJson, '');
    truncateSync(huge.mcpJson, MAX_CONFIG_BYTES + 1);
    expect(huge.load().problems).toEqual([expect.stringMatching(/over the 10485760 byte limit/)]);

    const dir = setup();
    mkdirSync(dir.mcpJson);
    expect(dir.load().servers).toEqual([]);
  });
});
