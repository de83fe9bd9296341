import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { runCommandHook } from './run-command';
import { fillHeader, runHttpHook } from './run-http';

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
const run = (command: string, input: object = { hook_event_name: 'Stop' }, timeoutMs = 10_000) => {
  const dir = tempDir('hook-run-');
  return runCommandHook({ type: 'command', command }, input, { cwd: dir, env, projectDir: dir, timeoutMs });
};

describe('runCommandHook', () => {
  it('gives the event JSON on stdin and CLAUDE_PROJECT_DIR in the environment', async () => {
    const r = await run('printf "%s " "$CLAUDE_PROJECT_DIR"; cat', { hook_event_name: 'Stop', x: 1 });
    expect(r.status).toBe('ok');
    const [dir, json] = r.stdout.split(' ');
    expect(JSON.parse(json ?? '')).toEqual({ hook_event_name: 'Stop', x: 1 });
    expect(dir).toMatch(/hook-run-/);
  });

  it('reads stdout as JSON only when it starts with {', async () => {
    const j = await run(`echo '  {"decision":"block","reason":"no"}'`);
    expect(j.json).toMatchObject({ decision: 'block', reason: 'no' });
    const plain = await run('echo hello');
    expect([plain.status, plain.json, plain.stdout]).toEqual(['ok', null, 'hello\n']);
    const broken = await run("echo '{nope'");
    expect(broken.status).toBe('error');
    expect(broken.problem).toMatch(/not JSON/);
  });

  it('exit 2 blocks with stderr; another code is a non-blocking error naming the first stderr line', async () => {
    const b = await run('echo "not allowed" >&2; exit 2');
    expect([b.status, b.exitCode, b.stderr]).toEqual(['block', 2, 'not allowed\n']);
    const e = await run('echo "first\nsecond" >&2; exit 3');
    expect(e.status).toBe('error');
    expect(e.problem).toBe('exited with 3: first');
  });

  it('runs with bash when asked, and refuses powershell', async () => {
    const dir = tempDir('hook-shell-');
    const o = { cwd: dir, env, projectDir: dir, timeoutMs: 5000 };
    const bash = await runCommandHook(
      { type: 'command', command: 'echo "$BASH_VERSION"', shell: 'bash' },
      {},
      o,
    );
    expect(bash.stdout.trim()).not.toBe('');
    const ps = await runCommandHook({ type: 'command', command: 'x', shell: 'powershell' }, {}, o);
    expect(ps.status).toBe('error');
  });

  it('a hook that ignores its stdin is fine', async () => {
    const r = await run('exit 0', { big: 'x'.repeat(1_000_000) });
    expect(r.status).toBe('ok');
  });

  it('kills the whole process group at the timeout', async () => {
    const dir = tempDir('hook-timeout-');
    const marker = path.join(dir, 'late');
    const r = await runCommandHook(
      { type: 'command', command: `(sleep 1; touch ${marker}) & sleep 30` },
      {},
      { cwd: dir, env, projectDir: dir, timeoutMs: 300 },
    );
    expect(r.status).toBe('timeout');
    expect(r.problem).toMatch(/timed out after 0.3 s/);
    // The background child was in the group and died with it: nothing appears later.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(marker)).toBe(false);
  });

  it('cuts output over 10,000 characters with a note', async () => {
    const r = await run(`head -c 25000 /dev/zero | tr '\\0' a`);
    expect(r.stdout.startsWith('a'.repeat(10_000))).toBe(true);
    expect(r.stdout).toContain('[hook output cut: 15000 more characters over the 10,000-character limit]');
    expect(r.stdout.length).toBeLessThan(10_200);
  });
});

describe('runHttpHook', () => {
  async function server(answer: (req: IncomingMessage, body: string) => [number, string]) {
    const seen: { headers: IncomingMessage['headers']; body: string }[] = [];
    const s = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        const [status, text] = answer(req, body);
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      });
    });
    s.listen(0, '127.0.0.1');
    await once(s, 'listening');
    onTestFinished(() => void s.close());
    return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, seen };
  }

  it('POSTs the event and fills header variables only from allowedEnvVars', async () => {
    const { url, seen } = await server(() => [200, '{"decision":"block","reason":"r"}']);
    const env = { SECRET: 's3', OTHER: 'o' };
    const r = await runHttpHook(
      {
        type: 'http',
        url,
        headers: { 'x-a': 'Bearer $SECRET', 'x-b': '${OTHER}-x', 'x-c': '${SECRET}' },
        allowedEnvVars: ['SECRET'],
      },
      { hook_event_name: 'Stop' },
      { env, timeoutMs: 5000 },
    );
    expect(r.status).toBe('ok');
    expect(r.json).toMatchObject({ decision: 'block' });
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ hook_event_name: 'Stop' });
    expect(seen[0]?.headers['x-a']).toBe('Bearer s3');
    expect(seen[0]?.headers['x-b']).toBe('-x');
    expect(seen[0]?.headers['x-c']).toBe('s3');
  });

  it('a non-2xx status, or a body that is not JSON, is a non-blocking error; an empty 2xx is success', async () => {
    const { url } = await server((req) =>
      req.url === '/hook?e' ? [204, ''] : req.url === '/hook?t' ? [200, 'text'] : [500, '{}'],
    );
    const go = (u: string) => runHttpHook({ type: 'http', url: u }, {}, { env: {}, timeoutMs: 5000 });
    expect((await go(url)).status).toBe('error');
    expect((await go(`${url}?t`)).status).toBe('error');
    expect((await go(`${url}?e`)).status).toBe('ok');
    expect((await go('http://127.0.0.1:1/x')).status).toBe('error');
  });

  it('fillHeader leaves no unlisted variable in', () => {
    expect(fillHeader('$A ${B} $C', ['A'], { A: '1', B: '2', C: '3' })).toBe('1  ');
  });
});
