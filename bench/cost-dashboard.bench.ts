/**
 * Cost dashboard open time (issue 11): 1,000 sessions / 100,000 usage records written as real
 * transcripts, then
 * - the first build (every transcript read, the ledger's cache file written),
 * - a cold open in a fresh process (load the cache + stat every transcript + the report for the last
 *   30 days and for all time), measured inside that process, several runs,
 * - a warm re-open in this process (the ledger in memory: stat + both reports).
 * Target: a cold open well under 300 ms. Run with `npm run bench cost-dashboard`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LEDGER_FILE, localDay, UsageLedger } from '../src-main/harness/cost/ledger';
import { dayStart } from '../src-main/harness/cost/ledger/local-day';
import { type UsageSpec, writeSession } from '../src-main/harness/cost/ledger/test-transcripts';
import { priceResponse } from '../src-main/harness/cost/pricing';
import { round, summarize } from './stats';

const SESSIONS = 1_000;
const RECORDS_PER_SESSION = 100;
/** Every fifth session ran a sub-agent, which made this many of its records. */
const SUB_AGENT_RECORDS = 20;
const PROJECTS = 10;
const SPAN_DAYS = 180;
const COLD_RUNS = 5;
const WARM_RUNS = 10;
const MODELS = ['claude-opus-4-1', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-sonnet-4-5'];

/** A small deterministic PRNG: the same data every run. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function usages(
  session: number,
  count: number,
  startMs: number,
  rand: () => number,
  prefix: string,
): UsageSpec[] {
  const out: UsageSpec[] = [];
  for (let i = 0; i < count; i++) {
    const model = MODELS[(session + Math.floor(i / 10)) % MODELS.length] ?? 'claude-sonnet-4-5';
    const tokens = {
      input: Math.floor(rand() * 5_000),
      output: Math.floor(rand() * 2_000),
      cacheWrite5m: Math.floor(rand() * 3_000),
      cacheWrite1h: i % 7 === 0 ? Math.floor(rand() * 2_000) : 0,
      cacheRead: Math.floor(rand() * 50_000),
      webSearches: i % 31 === 0 ? 1 : 0,
    };
    const price = priceResponse(model, tokens);
    out.push({
      apiId: `msg_${prefix}${session}_${i}`,
      model,
      tokens,
      costMicros: price.kind === 'priced' ? price.micros : null,
      turn: 1 + Math.floor(i / 5),
      at: new Date(startMs + i * 45_000).toISOString(),
    });
  }
  return out;
}

export function seed(home: string): void {
  const rand = prng(11);
  const now = Date.now();
  for (let s = 0; s < SESSIONS; s++) {
    const startMs = now - Math.floor((s / SESSIONS) * SPAN_DAYS * 86_400_000) - 3_600_000 * 2;
    const projectPath = `/bench/project-${s % PROJECTS}`;
    const sessionId = `bench-${String(s).padStart(4, '0')}`;
    const withAgent = s % 5 === 0;
    const main = usages(s, RECORDS_PER_SESSION - (withAgent ? SUB_AGENT_RECORDS : 0), startMs, rand, 'm');
    writeSession({ carapaceHome: home, projectPath, sessionId, title: `Session ${s}`, usages: main });
    if (withAgent)
      writeSession({
        carapaceHome: home,
        projectPath,
        sessionId,
        agent: { agentId: `agent-${s}`, name: 'explorer', agentType: 'Explore' },
        usages: usages(s, SUB_AGENT_RECORDS, startMs + 60_000, rand, 'a'),
      });
  }
}

function reports(ledger: UsageLedger) {
  const today = localDay(Date.now());
  const last30 = ledger.report({
    projectPaths: null,
    from: localDay(dayStart(today, -29)),
    to: today,
    sources: ['carapace'],
  });
  const all = ledger.report({
    projectPaths: null,
    from: localDay(dayStart(today, -3650)),
    to: today,
    sources: ['carapace'],
  });
  return { last30, all };
}

const median = (xs: number[]) => round(summarize(xs).p50);

export function benchCostDashboard() {
  return Promise.resolve(runCostDashboard());
}

function runCostDashboard() {
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-bench-cost-'));
  try {
    let t = performance.now();
    seed(home);
    const seedMs = performance.now() - t;

    t = performance.now();
    const first = new UsageLedger({ carapaceHome: home });
    const built = first.refreshSync();
    const firstBuildMs = performance.now() - t;
    const { all } = reports(first);
    if (all.total.records !== SESSIONS * RECORDS_PER_SESSION)
      throw new Error(
        `expected ${SESSIONS * RECORDS_PER_SESSION} records, the ledger has ${all.total.records}`,
      );

    const cold: { loadAndStatMs: number; report30Ms: number; reportAllMs: number; totalMs: number }[] = [];
    const script = path.join(import.meta.dirname, 'cost-dashboard-open.ts');
    for (let i = 0; i < COLD_RUNS; i++) {
      const r = spawnSync(process.execPath, [...process.execArgv, script, home], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`cold open failed: ${r.stderr}`);
      const line = r.stdout.trim().split('\n').at(-1) ?? '';
      const parsed = JSON.parse(line) as (typeof cold)[number] & { changedFiles: number; recordsAll: number };
      if (parsed.changedFiles !== 0 || parsed.recordsAll !== all.total.records)
        throw new Error(`cold open did not use the cache: ${line}`);
      cold.push(parsed);
    }

    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      t = performance.now();
      first.refreshSync();
      reports(first);
      warm.push(performance.now() - t);
    }

    return {
      name: 'cost-dashboard',
      sessions: SESSIONS,
      records: all.total.records,
      transcripts: built.changedFiles,
      cacheFileMb: round(statSync(path.join(home, LEDGER_FILE)).size / 1024 / 1024, 2),
      seedMs: round(seedMs),
      firstBuildMs: round(firstBuildMs),
      coldOpen: {
        runs: COLD_RUNS,
        medianTotalMs: median(cold.map((c) => c.totalMs)),
        medianLoadAndStatMs: median(cold.map((c) => c.loadAndStatMs)),
        medianReport30DaysMs: median(cold.map((c) => c.report30Ms)),
        medianReportAllTimeMs: median(cold.map((c) => c.reportAllMs)),
      },
      warmReopen: { runs: WARM_RUNS, medianMs: median(warm) },
      targetColdOpenMs: 300,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
