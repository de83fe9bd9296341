/**
 * `carapace -p` start-up: from spawning the process to the scripted Messages API receiving its first
 * /v1/messages request (median over runs), with the project's default settings (sandbox on). What a
 * one-shot `-p` call pays before the model sees anything. Run with `npm run bench -- startup`;
 * `CARAPACE_BENCH_CLI=/other/checkout/bin/carapace.js` times another build (a before/after).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageReply as Reply } from '../src-main/devtools/scripted-api/scenario';
import { startScriptedApi } from '../src-main/devtools/scripted-api/server';
import { cliEnv, CLI } from '../e2e/fixtures/cli';
import { round, summarize } from './stats';

const RUNS = 15;

export async function benchStartup() {
  const cli = process.env['CARAPACE_BENCH_CLI'] ?? CLI;
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-bench-startup-'));
  writeFileSync(path.join(project, 'README.md'), '# A project\n');
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-bench-home-'));
  let firstRequest: (() => void) | null = null;
  const api = await startScriptedApi({
    scenario: () => {
      firstRequest?.();
      firstRequest = null;
      return Reply.parse({
        content: [{ type: 'text', text: 'Hello.' }],
        usage: { input_tokens: 10, output_tokens: 2 },
      });
    },
  });
  const env = cliEnv(home, { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'bench' });
  const runOnce = () =>
    new Promise<{ toRequestMs: number; totalMs: number }>((resolve, reject) => {
      const started = performance.now();
      let toRequestMs = NaN;
      firstRequest = () => (toRequestMs = performance.now() - started);
      const child = spawn(process.execPath, [cli, '-p', 'say hello', '--output-format', 'json'], {
        cwd: project,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) => {
        if (code !== 0 || Number.isNaN(toRequestMs))
          reject(new Error(`carapace -p failed (exit ${String(code)}): ${err.slice(0, 500)}`));
        else resolve({ toRequestMs, totalMs: performance.now() - started });
      });
    });
  try {
    await runOnce(); // warm the OS file cache
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await runOnce());
    const toRequest = summarize(runs.map((r) => r.toRequestMs));
    return {
      name: 'startup',
      cli,
      runs: RUNS,
      processStartToFirstRequestMs: toRequest,
      processStartToExitMs: summarize(runs.map((r) => r.totalMs)),
      // A bare `node -e ''` on this machine now: the floor no start-up can go below.
      nodeFloorMs: round(await nodeFloor()),
    };
  } finally {
    await api.close();
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

async function nodeFloor(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await new Promise((resolve) => spawn(process.execPath, ['-e', '']).on('exit', resolve));
    samples.push(performance.now() - t);
  }
  return summarize(samples).p50;
}
