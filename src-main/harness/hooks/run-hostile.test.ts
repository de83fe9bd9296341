import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { runCommandHook } from './run-command';
import { runHttpHook } from './run-http';

/** Hooks written by a hostile repository (once trusted) or broken: they must still end, bounded. */
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

describe('hostile hooks end and stay bounded', () => {
  it("the person's hook command is not found in the repository through an empty or relative PATH entry", async () => {
    const project = tempDir('hook-path-project-');
    const home = tempDir('hook-path-home-');
    const marker = path.join(home, 'pwned');
    // The repository ships its own `prettier`; the person's hook means the one on their PATH.
    writeFileSync(path.join(project, 'prettier'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const base = process.env['PATH'] ?? '/usr/bin:/bin';
    for (const PATH of [`${base}:`, `.:${base}`, `:${base}`]) {
      const r = await runCommandHook(
        { type: 'command', command: 'prettier --version; echo "PATH=$PATH"' },
        { hook_event_name: 'PostToolUse' },
        { cwd: project, env: { PATH }, projectDir: project, timeoutMs: 10_000 },
      );
      expect(existsSync(marker)).toBe(false);
      expect(r.stdout).toContain(`PATH=${base}\n`);
    }
  });

  it('a command hook whose grandchild leaves the process group and keeps stdout open ends at its timeout', async () => {
    const dir = tempDir('hook-setsid-');
    const marker = `hook-setsid-${process.pid}-${Date.now()}`;
    onTestFinished(() => {
      // The grandchild escaped the group on purpose; end it by its unique argument's process id.
      try {
        const pids = execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).split('\n').filter(Boolean);
        for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
      } catch {
        // None left.
      }
    });
    const r = await runCommandHook(
      { type: 'command', command: `setsid sh -c 'sleep 120; echo ${marker}' & echo started` },
      { hook_event_name: 'Stop' },
      // Long enough for `echo started` on a loaded machine, far short of the grandchild's 120 s.
      { cwd: dir, env, projectDir: dir, timeoutMs: 5_000 },
    );
    expect(r.status).toBe('timeout');
    expect(r.stdout).toBe('started\n');
  }, 30_000);

  it('a command hook printing 100 MB keeps only the start of it, with the rest counted', async () => {
    const dir = tempDir('hook-flood-');
    const r = await runCommandHook(
      { type: 'command', command: "head -c 100000000 /dev/zero | tr '\\0' a" },
      { hook_event_name: 'Stop' },
      { cwd: dir, env, projectDir: dir, timeoutMs: 60_000 },
    );
    expect(r.status).toBe('ok');
    expect(r.stdout.length).toBeLessThan(11_000);
    expect(r.stdout).toMatch(/hook output cut: 99,?990,?000 more characters/);
  }, 60_000);

  it("an http hook's redirect is not followed: its headers and the event do not travel on to another host", async () => {
    const hits: { path: string; key: string | undefined }[] = [];
    const elsewhere = createServer((req, res) => {
      hits.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    elsewhere.listen(0, '127.0.0.1');
    await new Promise((resolve) => elsewhere.once('listening', resolve));
    const to = (elsewhere.address() as AddressInfo).port;
    const first = createServer((_req, res) =>
      res.writeHead(307, { location: `http://localhost:${to}/collect` }).end(),
    );
    first.listen(0, '127.0.0.1');
    await new Promise((resolve) => first.once('listening', resolve));
    onTestFinished(() => {
      for (const s of [first, elsewhere]) {
        s.closeAllConnections();
        s.close();
      }
    });
    const { port } = first.address() as AddressInfo;
    const r = await runHttpHook(
      {
        type: 'http',
        url: `http://127.0.0.1:${port}/hook`,
        headers: { 'x-api-key': '$KEY' },
        allowedEnvVars: ['KEY'],
      },
      { hook_event_name: 'PreToolUse', tool_input: { content: 'secret file' } },
      { env: { ...env, KEY: 'k-123' }, timeoutMs: 20_000 },
    );
    expect(r.status).toBe('error');
    expect(r.problem).toMatch(/redirect.*not followed/);
    expect(hits).toEqual([]);
  });

  it('an http hook whose server streams forever is read up to a cap, then cut, long before its timeout', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    onTestFinished(() => {
      server.closeAllConnections();
      server.close();
    });
    const { port } = server.address() as AddressInfo;
    const r = await runHttpHook(
      { type: 'http', url: `http://127.0.0.1:${port}/hook` },
      { hook_event_name: 'Stop' },
      { env, timeoutMs: 600_000 },
    );
    expect(r.status).toBe('error');
    expect(r.problem).toMatch(/more than/);
    expect(r.stdout.length).toBeLessThan(20_000);
  }, 30_000);
});
