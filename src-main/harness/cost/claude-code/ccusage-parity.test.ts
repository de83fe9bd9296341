import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TokenCounts } from '@shared/domain/cost-report';
import { tempDir } from '../../../test-support/temp';
import { UsageLedger } from '../ledger';
import type { UsageRecord } from '../usage-record';
import { priceResponse } from '../pricing';
import { claudeCodeDirs, listClaudeCodeFiles } from './dirs';
import { mergeClaudeCodeFiles } from './merge';
import { readClaudeCodeFile } from './read-file';
import { assistantLine, summaryLine, userLine } from './test-fixture';

/**
 * Parity with ccusage (issue 11, "Done when"): on Claude Code transcripts generated here, the daily
 * totals Carapace computes for the Claude Code source equal `ccusage daily --json --offline` on the
 * same files, to the cent. ccusage 18.0.11 runs as a child process, exactly as a person would run it.
 *
 * Where the two differ on purpose, the difference is written out and checked, not hidden:
 * - a 1 h cache write: ccusage prices every cache write at LiteLLM's one cache-creation price (the
 *   5 min one) and does not read `cache_creation.ephemeral_1h_input_tokens`; the API bills 1 h writes
 *   at 2 × input. So on a day with 1 h writes Carapace is higher by exactly
 *   1h tokens × (1 h price − 5 min price), which the test adds to ccusage's figure, by hand.
 * - web searches (ccusage ignores them) and unknown models (ccusage: $0, Carapace: unpriced) are left
 *   out of the fixture.
 * - no reply has 200k tokens of any kind: above that ccusage tiers each kind of token on its own
 *   (`200k × base + rest × above-200k price`), while Anthropic's long-context rule for Sonnet 4/4.5
 *   reprices the whole request once its input side passes 200k. The two rules disagree there.
 */

const require = createRequire(import.meta.url);
const CCUSAGE = path.join(path.dirname(require.resolve('ccusage/package.json')), 'dist/index.js');
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

const SONNET = 'claude-sonnet-4-5-20250929';
const HAIKU = 'claude-haiku-4-5-20251001';
/**
 * µ$ per 1 h write token above the 5 min price, from our table (resources/prices.json):
 * Sonnet 4.5 6 − 3.75 = 2.25; Haiku 4.5 2 − 1.25 = 0.75.
 */
const ONE_HOUR_SURCHARGE: Record<string, number> = { [SONNET]: 2.25, [HAIKU]: 0.75 };

interface CcusageDay {
  date: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
}

function runCcusage(configDirs: string[]): CcusageDay[] {
  const out = execFileSync(process.execPath, [CCUSAGE, 'daily', '--json', '--offline', '--timezone', TZ], {
    cwd: configDirs[0],
    env: { ...process.env, CLAUDE_CONFIG_DIR: configDirs.join(','), NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const parsed = JSON.parse(out) as { daily: CcusageDay[] } | [];
  return Array.isArray(parsed) ? [] : parsed.daily;
}

function write(file: string, lines: string[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
}

/** Carapace's side: find, read and merge as the ledger does, then sum per local day in `TZ`. */
function carapaceDaily(configDirs: string[]) {
  const dirs = claudeCodeDirs({ CLAUDE_CONFIG_DIR: configDirs.join(',') }, '/nonexistent');
  const files = dirs.flatMap((d) => listClaudeCodeFiles(d).files).map(readClaudeCodeFile);
  const records = mergeClaudeCodeFiles(files);
  const dayOf = new Intl.DateTimeFormat('en-CA', {
    timeZone: TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const days = new Map<string, { micros: number; tokens: TokenCounts; records: UsageRecord[] }>();
  for (const r of records) {
    const day = dayOf.format(r.at);
    const d = days.get(day) ?? {
      micros: 0,
      tokens: { input: 0, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, webSearches: 0 },
      records: [],
    };
    expect(r.costMicros, `${r.model} is priced`).not.toBeNull();
    d.micros += r.costMicros ?? 0;
    for (const k of Object.keys(d.tokens) as (keyof TokenCounts)[]) d.tokens[k] += r.tokens[k];
    d.records.push(r);
    days.set(day, d);
  }
  return {
    days,
    problems: files.flatMap((f) => f.problems),
    lineCount: files.reduce((n, f) => n + f.records.length, 0),
  };
}

describe('parity with ccusage daily --json --offline', () => {
  it("ccusage's offline prices for the fixture's models equal our table (per kind of token)", () => {
    // One reply of 100,000 tokens of one kind per day: ccusage's day cost is that kind's price.
    const cfg = tempDir();
    const kinds = ['input', 'output', 'cacheWrite5m', 'cacheRead'] as const;
    const lines: string[] = [];
    const expected: Record<string, number> = {};
    [SONNET, HAIKU].forEach((model, m) =>
      kinds.forEach((kind, k) => {
        const at = `2026-10-${String(1 + m * 4 + k).padStart(2, '0')}T12:00:00.000Z`;
        lines.push(
          assistantLine({
            sessionId: 'p',
            cwd: '/p',
            at,
            model,
            messageId: `m${m}${k}`,
            requestId: 'r',
            [kind]: 100_000,
          }),
        );
        const t = {
          input: 0,
          output: 0,
          cacheWrite5m: 0,
          cacheWrite1h: 0,
          cacheRead: 0,
          webSearches: 0,
          [kind]: 100_000,
        };
        const priced = priceResponse(model, t);
        expect(priced.kind).toBe('priced');
        expected[new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(Date.parse(at))] =
          priced.kind === 'priced' ? priced.micros : NaN;
      }),
    );
    write(path.join(cfg, 'projects', '-p', 'p.jsonl'), lines);
    const days = runCcusage([cfg]);
    expect(days).toHaveLength(8);
    for (const d of days) expect(Math.round(d.totalCost * 1e6), d.date).toBe(expected[d.date]);
  });

  it('daily totals equal ccusage to the cent (plus the 1 h write surcharge ccusage leaves out, by hand)', async () => {
    const cfgA = tempDir();
    const cfgB = tempDir();
    const alpha = '/work/alpha';
    const beta = '/work/beta';
    let seq = 0;
    /** The replies written, once each, for the surcharge sum below. */
    const replies: { at: string; model: string; cacheWrite1h: number; costUSD?: number | undefined }[] = [];

    /** One reply as Claude Code writes it: a line per content block, same ids, the first line's usage counted. */
    const reply = (o: {
      sessionId: string;
      cwd: string;
      at: string;
      model: string;
      input: number;
      output: number;
      cacheWrite5m?: number;
      cacheWrite1h?: number;
      cacheRead?: number;
      costUSD?: number;
      blocks?: number;
    }): string[] => {
      seq++;
      const base = { ...o, messageId: `msg_${seq}`, requestId: `req_${seq}` };
      replies.push({ at: o.at, model: o.model, cacheWrite1h: o.cacheWrite1h ?? 0, costUSD: o.costUSD });
      return Array.from({ length: o.blocks ?? 2 }, (_, b) =>
        // Later block lines of the same reply carry a larger output count; both tools keep the first.
        assistantLine({ ...base, output: o.output + b * 50 }),
      );
    };

    // Project alpha, session 1 (config dir A): Sonnet with 5 min and 1 h writes, over two days, and a
    // Haiku sub-agent in its own file.
    const a1: string[] = [
      userLine({ sessionId: 'a1', cwd: alpha, at: '2026-11-03T08:59:00.000Z', text: 'Refactor the cart' }),
    ];
    const copied: string[][] = [];
    for (let i = 0; i < 6; i++) {
      const r = reply({
        sessionId: 'a1',
        cwd: alpha,
        at: `2026-11-03T${String(9 + i).padStart(2, '0')}:00:00.000Z`,
        model: SONNET,
        input: 1200 + 37 * i,
        output: 800 + 113 * i,
        cacheWrite5m: 15_000 + 1_111 * i,
        cacheWrite1h: i % 2 ? 9_000 + 7 * i : 0,
        cacheRead: 40_000 + 3_333 * i,
      });
      a1.push(...r);
      if (i >= 4) copied.push(r);
    }
    a1.push(
      ...reply({
        sessionId: 'a1',
        cwd: alpha,
        at: '2026-11-04T00:30:00.000Z',
        model: SONNET,
        input: 3,
        output: 420,
        cacheRead: 61_000,
      }),
    );
    a1.push(summaryLine('Cart refactor'));
    write(path.join(cfgA, 'projects', '-work-alpha', 'a1.jsonl'), a1);
    const sub: string[] = [];
    for (let i = 0; i < 4; i++)
      sub.push(
        ...reply({
          sessionId: 'a1',
          cwd: alpha,
          at: `2026-11-04T0${1 + i}:15:00.000Z`,
          model: HAIKU,
          input: 5_000 + 101 * i,
          output: 1_500 + 17 * i,
          cacheWrite5m: 2_000 * i,
          cacheWrite1h: 3_000,
          cacheRead: 12_345 * i,
          blocks: 1,
        }),
      );
    write(path.join(cfgA, 'projects', '-work-alpha', 'a1', 'subagents', 'agent-r1.jsonl'), sub);

    // Project alpha, session 2 (config dir B): resumed from session 1, so it starts with copies of two of
    // its replies (same message and request ids), then goes on; plus two replies with neither id
    // duplicated verbatim (never deduplicated: both count), a <synthetic> error line, a torn line.
    const a2: string[] = copied.flat();
    for (let i = 0; i < 3; i++)
      a2.push(
        ...reply({
          sessionId: 'a2',
          cwd: alpha,
          at: `2026-11-08T1${i}:00:00.000Z`,
          model: SONNET,
          input: 900,
          output: 2_000 + i,
          cacheRead: 80_000,
          cacheWrite5m: 4_000,
        }),
      );
    const noIds = assistantLine({
      sessionId: 'a2',
      cwd: alpha,
      at: '2026-11-08T13:00:00.000Z',
      model: HAIKU,
      input: 777,
      output: 333,
    });
    a2.push(noIds, noIds);
    replies.push(
      { at: '2026-11-08T13:00:00.000Z', model: HAIKU, cacheWrite1h: 0 },
      { at: '2026-11-08T13:00:00.000Z', model: HAIKU, cacheWrite1h: 0 },
    );
    a2.push(
      assistantLine({
        sessionId: 'a2',
        cwd: alpha,
        at: '2026-11-08T13:01:00.000Z',
        model: '<synthetic>',
        messageId: 'syn',
        requestId: 'syn',
      }),
    );
    a2.push('{"type":"assistant","message":{"usage":{"input_tok');
    write(path.join(cfgB, 'projects', '-work-alpha', 'a2.jsonl'), a2);

    // Project beta (config dir B): Haiku and Sonnet, 1 h writes, lines that carry costUSD (older Claude
    // Code wrote it; ccusage's auto mode and ours take it as is), replies either side of midnight.
    const b1: string[] = [];
    for (let i = 0; i < 8; i++)
      b1.push(
        ...reply({
          sessionId: 'b1',
          cwd: beta,
          at: new Date(Date.parse('2026-11-05T20:00:00.000Z') + i * 47 * 60_000).toISOString(),
          model: i % 3 ? HAIKU : SONNET,
          input: 2_000 + 250 * i,
          output: 600 + 90 * i,
          cacheWrite5m: i % 2 ? 0 : 6_000,
          cacheWrite1h: i % 2 ? 11_000 + i : 0,
          cacheRead: 25_000 * (i % 4),
          ...(i === 2 || i === 5 ? { costUSD: 0.0123 + i / 1000 } : {}),
        }),
      );
    write(path.join(cfgB, 'projects', '-work-beta', 'b1.jsonl'), b1);

    const configDirs = [cfgA, cfgB];
    const ours = carapaceDaily(configDirs);
    const theirs = runCcusage(configDirs);

    // What the dashboard and `carapace usage` show: the ledger's report for the Claude Code source. Its
    // days are the process's local days, the zone ccusage was given.
    const ledger = new UsageLedger({
      carapaceHome: tempDir(),
      claudeCode: { dirs: claudeCodeDirs({ CLAUDE_CONFIG_DIR: configDirs.join(',') }, '/nonexistent') },
    });
    await ledger.refresh();
    const report = ledger.report({
      projectPaths: null,
      from: '2026-11-01',
      to: '2026-11-10',
      sources: ['claude-code'],
    });
    const shown = new Map(report.days.filter((d) => d.total.records > 0).map((d) => [d.day, d.total]));
    expect([...shown.keys()]).toEqual(theirs.map((d) => d.date).sort());

    // The fixture is what it claims: several days, duplicates that were dropped, a torn line reported.
    expect(theirs.length).toBeGreaterThanOrEqual(3);
    expect(ours.problems).toEqual([expect.stringMatching(/a2\.jsonl: line \d+ skipped: not valid JSON/)]);
    expect([...ours.days.keys()].sort()).toEqual(theirs.map((d) => d.date).sort());

    // The surcharge ccusage leaves out, per day, from the replies as written (first copies only:
    // copies carry the same numbers), lines with costUSD excluded (their price is Claude Code's).
    const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: TZ });
    const surcharge = new Map<string, number>();
    for (const r of replies)
      if (r.costUSD === undefined && r.cacheWrite1h > 0) {
        const day = dayOf.format(Date.parse(r.at));
        surcharge.set(day, (surcharge.get(day) ?? 0) + r.cacheWrite1h * (ONE_HOUR_SURCHARGE[r.model] ?? NaN));
      }
    expect(surcharge.size).toBeGreaterThanOrEqual(2);

    for (const d of theirs) {
      const o = ours.days.get(d.date)!;
      const fromLedger = shown.get(d.date)!;
      // The ledger and the reader agree exactly (same records, same dedupe).
      expect(fromLedger.costMicros, d.date).toBe(o.micros);
      expect(fromLedger.tokens, d.date).toEqual(o.tokens);
      expect(o.tokens.input, d.date).toBe(d.inputTokens);
      expect(o.tokens.output, d.date).toBe(d.outputTokens);
      expect(o.tokens.cacheWrite5m + o.tokens.cacheWrite1h, d.date).toBe(d.cacheCreationTokens);
      expect(o.tokens.cacheRead, d.date).toBe(d.cacheReadTokens);
      const expectedUsd = d.totalCost + (surcharge.get(d.date) ?? 0) / 1e6;
      const oursUsd = o.micros / 1e6;
      expect(oursUsd.toFixed(2), d.date).toBe(expectedUsd.toFixed(2));
      // Far tighter than a cent: each reply is rounded to a micro-dollar once.
      expect(Math.abs(oursUsd - expectedUsd), d.date).toBeLessThan(0.000_05);
    }
    // Duplicates were there to drop: more records read than counted.
    expect(ours.lineCount).toBeGreaterThan([...ours.days.values()].reduce((n, d) => n + d.records.length, 0));
    // And where no 1 h write happened, the figures are simply equal.
    const plainDays = theirs.filter((d) => !surcharge.has(d.date));
    expect(plainDays.length).toBeGreaterThanOrEqual(1);
  });
});
