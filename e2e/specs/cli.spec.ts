import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { expect, test } from '@playwright/test';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'bin/carapace.js');

/** Runs the real `carapace` command; resolves once `ready` matches its stdout. */
function run(args: string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const matched = new Promise<RegExpMatchArray>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) resolve(m);
    });
    void exit.then((code) =>
      reject(new Error(`exited ${String(code)} before ready\nstdout: ${out}\nstderr: ${err}`)),
    );
  });
  // Tests that expect a failed start never await `matched`: keep its rejection from going unhandled.
  matched.catch(() => undefined);
  return { child, exit, matched, stdout: () => out, stderr: () => err };
}

function baseEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CARAPACE_HOME: home };
  delete env['DISPLAY'];
  delete env['WAYLAND_DISPLAY'];
  delete env['ANTHROPIC_API_KEY'];
  delete env['ANTHROPIC_BASE_URL'];
  return env;
}

test('`carapace` without Electron or a display says so in one line and serves instead; SIGTERM exits cleanly', async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-cli-'));
  try {
    const p = run([], baseEnv(home), /^Carapace serving (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})$/m);
    const [, url] = await p.matched;
    const lines = p.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/starting serve mode instead/);
    const res = await fetch(url ?? '');
    expect(res.status).toBe(200);
    expect(p.stdout().trim().split('\n')).toHaveLength(1);
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('`carapace serve` refuses a port in use with a clear error and exit code 2', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
  const port = (blocker.address() as { port: number }).port;
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-cli-'));
  try {
    const p = run(['serve', '--port', String(port)], baseEnv(home), /never/);
    expect(await p.exit).toBe(2);
    expect(p.stderr()).toContain(`Port ${port} is in use; pass --port 0 for a free one.`);
    const bad = run(['serve', '--frobnicate'], baseEnv(home), /never/);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toContain('Unknown option "--frobnicate" for serve.');
  } finally {
    blocker.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test('`carapace scripted-api` replays a scenario file to the real SDK', async () => {
  const p = run(
    ['scripted-api', '--scenario', 'e2e/fixtures/scenarios/hello.json'],
    baseEnv(tmpdir()),
    /on (http:\/\/127\.0\.0\.1:\d+) /,
  );
  const [, url] = await p.matched;
  try {
    const sdk = new Anthropic({ apiKey: 'k', baseURL: url ?? '', maxRetries: 0 });
    const message = await sdk.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from a scenario file.' });
    expect(message.usage).toMatchObject({ input_tokens: 12, output_tokens: 7 });
    await expect(
      sdk.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'again' }],
      }),
    ).rejects.toMatchObject({ status: 529 });
  } finally {
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  }
});
