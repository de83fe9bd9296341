/**
 * The harness under load: a 30-turn `carapace -p` run where every turn asks for 3 parallel Reads and
 * one Bash, against the scripted Messages API. Times the whole process (start to exit) and reports
 * its peak memory. Run with `npm run bench`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MessageReply } from '../src-main/devtools/scripted-api/scenario';
import { MessageReply as Reply } from '../src-main/devtools/scripted-api/scenario';
import { startScriptedApi } from '../src-main/devtools/scripted-api/server';
import { cliEnv, CLI } from '../e2e/fixtures/cli';
import { round, summarize } from './stats';

const TURNS = 30;
const RUNS = 5;

function reply(turn: number): MessageReply {
  if (turn >= TURNS)
    return Reply.parse({
      content: [{ type: 'text', text: `All ${TURNS} turns done.` }],
      usage: { input_tokens: 5000, output_tokens: 20 },
    });
  return Reply.parse({
    content: [
      { type: 'text', text: `Turn ${turn}: reading three files and running a command.` },
      ...['a', 'b', 'c'].map((f) => ({ type: 'tool_use', name: 'Read', input: { file_path: `${f}.ts` } })),
      { type: 'tool_use', name: 'Bash', input: { command: `echo turn ${turn}` } },
    ],
    stop_reason: 'tool_use',
    usage: { input_tokens: 4000 + turn * 300, output_tokens: 120 },
  });
}

function numTurns(json: string): number | null {
  try {
    return (JSON.parse(json) as { num_turns: number }).num_turns;
  } catch {
    return null;
  }
}

/** One timed run: wall time of the whole process and its peak RSS (reported by the process itself on exit). */
function runOnce(
  project: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; maxRssMb: number; ok: boolean }> {
  return new Promise((resolve, reject) => {
    // A wrapper that runs the real CLI in-process and reports its peak RSS on exit; argv as if run directly.
    // `CARAPACE_BENCH_CLI` times another build (a before/after), as in startup.bench.ts.
    const cli = process.env['CARAPACE_BENCH_CLI'] ?? CLI;
    const reporter = `process.argv.splice(1, 0, ${JSON.stringify(cli)}); process.on('exit', () => require('fs').writeSync(3, String(process.resourceUsage().maxRSS))); import(${JSON.stringify(cli)});`;
    const args = [
      '-e',
      reporter,
      '--',
      '-p',
      'do the 30 turns',
      '--output-format',
      'json',
      '--permission-mode',
      'bypassPermissions',
      '--max-turns',
      String(TURNS + 5),
    ];
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let rss = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdio[3]?.on('data', (d: Buffer) => (rss += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      const ok = code === 0 && numTurns(out) === TURNS + 1;
      if (!ok) console.error(`run failed (exit ${String(code)}): ${err.slice(0, 500)}`);
      resolve({ ms, maxRssMb: Number(rss) / 1024, ok });
    });
  });
}

export async function benchHarness() {
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-bench-harness-'));
  // ~6 KB source files: after 30 turns the context is ~540 KB, about what a full 200k-token window holds.
  for (const f of ['a', 'b', 'c'])
    writeFileSync(
      path.join(project, `${f}.ts`),
      `export const ${f}Value = computeSomething(${'1, '.repeat(12)}1);\n`.repeat(100),
    );
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-bench-home-'));
  let counter = 0;
  const api = await startScriptedApi({ scenario: () => reply(counter++ % (TURNS + 1)) });
  const env = cliEnv(home, { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'bench' });
  const measure = async (sandbox: boolean) => {
    // The project's settings switch the OS sandbox around each Bash command on or off.
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ sandbox: { enabled: sandbox } }),
    );
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      counter = 0;
      runs.push(await runOnce(project, env));
    }
    const wall = summarize(runs.map((r) => r.ms));
    return {
      allSucceeded: runs.every((r) => r.ok),
      processWallMs: wall,
      perTurnMs: round(wall.p50 / (TURNS + 1)),
      peakRssMb: {
        max: round(Math.max(...runs.map((r) => r.maxRssMb))),
        p50: summarize(runs.map((r) => r.maxRssMb)).p50,
      },
    };
  };
  try {
    const sandboxed = await measure(true);
    const unsandboxed = await measure(false);
    return {
      name: 'harness',
      scenario: `${TURNS} turns × (3 parallel Reads + 1 Bash), carapace -p, scripted API with no delay`,
      runs: RUNS,
      sandboxed,
      unsandboxed,
      // Target: at most 1.1 (the sandbox on costs at most 10% of the whole run).
      sandboxedOverUnsandboxedP50: round(sandboxed.processWallMs.p50 / unsandboxed.processWallMs.p50, 2),
    };
  } finally {
    await api.close();
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}
