import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assistantLine, userLine } from '../harness/cost/claude-code/test-fixture';
import { writeSession } from '../harness/cost/ledger/test-transcripts';
import { PRICE_TABLE } from '../harness/cost/pricing';
import { captureUsage } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';
import { parseArgs, UsageError } from './args';
import { parseDay, parseUsageArgs, type UsageOptions } from './usage-args';

/**
 * The figures, by hand from the price table (µ$ per token = $ per million tokens):
 * - Carapace, /work/shop, 3 Nov: Sonnet 4.5, 10,000 in × 3 + 2,000 out × 15 = 60,000 µ$ (recorded
 *   in the usage line, as the engine writes it), and an unknown model's 500 input tokens, unpriced.
 * - Carapace, /work/shop, 4 Nov: Haiku 4.5, 1,000 in × 1 + 20,000 5 min writes × 1.25 = 26,000 µ$.
 * - Claude Code, /work/cli, 4 Nov: Haiku 4.5, 4,000 in × 1 + 1,000 out × 5 + 10,000 1 h writes × 2
 *   + 50,000 reads × 0.1 = 34,000 µ$ (priced by the reader, as ccusage's auto mode would).
 * - Claude Code, 8 Dec: Sonnet 4.5, 1,000 out × 15 = 15,000 µ$.
 */
const SONNET = 'claude-sonnet-4-5-20250929';
const HAIKU = 'claude-haiku-4-5-20251001';

function world() {
  const root = tempDir();
  const home = path.join(root, 'carapace');
  writeSession({
    carapaceHome: home,
    projectPath: '/work/shop',
    sessionId: 'shop-1',
    title: 'Checkout, fixed',
    usages: [
      {
        apiId: 'm1',
        model: SONNET,
        tokens: { input: 10_000, output: 2_000 },
        costMicros: 60_000,
        turn: 1,
        at: '2026-11-03T12:00:00.000Z',
      },
      {
        apiId: 'm2',
        model: 'claude-future-9',
        tokens: { input: 500 },
        costMicros: null,
        turn: 1,
        at: '2026-11-03T12:01:00.000Z',
      },
      {
        apiId: 'm3',
        model: HAIKU,
        tokens: { input: 1_000, cacheWrite5m: 20_000 },
        costMicros: 26_000,
        turn: 2,
        at: '2026-11-04T12:00:00.000Z',
      },
    ],
  });
  const claude = path.join(root, 'claude-config');
  const file = path.join(claude, 'projects', '-work-cli', 'cc-1.jsonl');
  mkdirSync(path.dirname(file), { recursive: true });
  const cc = { sessionId: 'cc-1', cwd: '/work/cli' };
  writeFileSync(
    file,
    [
      userLine({ ...cc, at: '2026-11-04T11:59:00.000Z', text: '=cmd|evil' }),
      assistantLine({
        ...cc,
        at: '2026-11-04T12:00:00.000Z',
        model: HAIKU,
        messageId: 'c1',
        requestId: 'r1',
        input: 4_000,
        output: 1_000,
        cacheWrite1h: 10_000,
        cacheRead: 50_000,
      }),
      assistantLine({
        ...cc,
        at: '2026-11-04T12:00:00.000Z',
        model: HAIKU,
        messageId: 'c1',
        requestId: 'r1',
        input: 4_000,
        output: 1_000,
        cacheWrite1h: 10_000,
        cacheRead: 50_000,
      }),
      assistantLine({
        ...cc,
        at: '2026-12-08T12:00:00.000Z',
        model: SONNET,
        messageId: 'c2',
        requestId: 'r2',
        output: 1_000,
      }),
    ].join('\n') + '\n',
  );
  return { root, home, claude };
}

function run(argv: string[], w: ReturnType<typeof world>, extraEnv: Record<string, string> = {}) {
  return captureUsage(argv, {
    cwd: '/work',
    env: { CARAPACE_HOME: w.home, CLAUDE_CONFIG_DIR: w.claude, ...extraEnv },
    home: path.join(w.root, 'nohome'),
    now: new Date('2026-12-10T12:00:00.000Z'),
  });
}

interface DayJson {
  day: string;
  costMicros: number;
  costUsd: number;
  records: number;
  unpricedRecords: number;
  models: string[];
}

describe('carapace usage', () => {
  it('daily --json: both sources, each day priced as the table applied by hand', async () => {
    const w = world();
    const { code, out, err } = await run(['daily', '--json', '--since', '20261101'], w);
    expect(code).toBe(0);
    expect(err).toBe('');
    const j = JSON.parse(out) as {
      daily: DayJson[];
      total: DayJson;
      sources: string[];
      from: string;
      to: string;
    };
    expect(j).toMatchObject({ from: '2026-11-01', to: '2026-12-10', sources: ['carapace', 'claude-code'] });
    expect(j.daily.map((d) => [d.day, d.costMicros, d.records, d.unpricedRecords])).toEqual([
      ['2026-11-03', 60_000, 2, 1],
      ['2026-11-04', 26_000 + 34_000, 2, 0],
      ['2026-12-08', 15_000, 1, 0],
    ]);
    expect(j.total).toMatchObject({ costMicros: 135_000, costUsd: 0.135, records: 5, unpricedRecords: 1 });
  });

  it('monthly and session views, --source and --project', async () => {
    const w = world();
    const monthly = JSON.parse((await run(['monthly', '--json'], w)).out) as {
      monthly: (DayJson & { month: string })[];
    };
    expect(monthly.monthly.map((m) => [m.month, m.costMicros])).toEqual([
      ['2026-11', 120_000],
      ['2026-12', 15_000],
    ]);

    const sessions = JSON.parse((await run(['session', '--json', '--source', 'claude-code'], w)).out) as {
      sessions: {
        sessionId: string;
        source: string;
        costMicros: number;
        title: string;
        projectPath: string;
      }[];
    };
    expect(sessions.sessions).toEqual([
      expect.objectContaining({
        sessionId: 'cc-1',
        source: 'claude-code',
        costMicros: 49_000,
        projectPath: '/work/cli',
      }),
    ]);

    const shop = JSON.parse(
      (await run(['daily', '--json', '--project', 'shop', '--until', '2026-11-03'], w)).out,
    ) as { daily: DayJson[]; project: string };
    expect(shop.project).toBe('/work/shop');
    expect(shop.daily.map((d) => [d.day, d.costMicros])).toEqual([['2026-11-03', 60_000]]);
  });

  it('leaves Claude Code out when the setting says so, and says how to see it', async () => {
    const w = world();
    mkdirSync(w.home, { recursive: true });
    writeFileSync(
      path.join(w.home, 'settings.json'),
      JSON.stringify({ usage: { includeClaudeCode: false } }),
    );
    const { out, err } = await run(['--json'], w);
    expect((JSON.parse(out) as { total: DayJson }).total.costMicros).toBe(86_000);
    expect(err).toMatch(/usage\.includeClaudeCode is false.*--source claude-code/);
  });

  it('prints a table by default: numbers right-aligned, a totals row, unpriced marked', async () => {
    const w = world();
    const { out } = await run(['--since', '2026-11-01'], w);
    const lines = out.split('\n');
    expect(lines[0]).toBe(
      `Usage 2026-11-01 – 2026-12-10, Carapace and Claude Code (estimates, price table ${PRICE_TABLE.version})`,
    );
    const header = lines[2]!;
    expect(header).toMatch(/^Date\s+Models\s+Input\s+Output\s+Cache write\s+Cache read\s+Cost \(USD\)$/);
    const row3 = lines.find((l) => l.startsWith('2026-11-03'))!;
    const row4 = lines.find((l) => l.startsWith('2026-11-04'))!;
    const total = lines.find((l) => l.startsWith('Total'))!;
    expect(row3).toMatch(/future-9, sonnet-4-5\s+10,500\s+2,000\s+0\s+0\s+\$0\.06\*$/);
    expect(row4).toMatch(/haiku-4-5\s+5,000\s+1,000\s+30,000\s+50,000\s+\$0\.06$/);
    expect(total).toMatch(/\s+15,500\s+4,000\s+30,000\s+50,000\s+\$0\.14\*$/);
    // Right-aligned: every row ends in the same column.
    expect(new Set([header, row3, row4, total].map((l) => l.length)).size).toBe(1);
    expect(out).toMatch(/\* includes responses of models the price table does not know/);
  });

  it('session table: a row per session with its project, Claude Code marked', async () => {
    const w = world();
    const { out } = await run(['session'], w);
    expect(out.split('\n')[0]).toMatch(/^Usage until 2026-12-10, Carapace and Claude Code/);
    expect(out).toMatch(
      /^Checkout, fixed\s+shop\s+future-9, haiku-4-5, sonnet-4-5\s+11,500\s+2,000\s+20,000\s+0\s+\$0\.09\*$/m,
    );
    expect(out).toMatch(
      /^'?=cmd\|evil\s+cli \(Claude Code\)\s+haiku-4-5, sonnet-4-5\s+4,000\s+2,000\s+10,000\s+50,000\s+\$0\.05$/m,
    );
  });

  it('says so when a range has no usage', async () => {
    const w = world();
    const { out } = await run(['--since', '2025-01-01', '--until', '2025-01-31'], w);
    expect(out).toMatch(/No usage in this range\./);
  });
});

describe('carapace usage with hostile transcripts', () => {
  const OSC52 = '\x1b]52;c;ZWNobyBwd25lZA==\x07';
  const CLEAR = '\x1b[2J\x1b[H';
  const C1_CSI = '\x9b31m';

  function hostileWorld() {
    const w = world();
    writeSession({
      carapaceHome: w.home,
      projectPath: `/work/evil${CLEAR}dir`,
      sessionId: 'evil-1',
      title: `Nice title${OSC52}${C1_CSI}`,
      usages: [
        {
          apiId: 'e1',
          model: `claude-x${CLEAR}`,
          tokens: { input: 1 },
          costMicros: null,
          turn: 1,
          at: '2026-11-05T12:00:00.000Z',
        },
      ],
    });
    const bad = path.join(w.claude, 'projects', `-evil${OSC52}`, 'bad.jsonl');
    mkdirSync(path.dirname(bad), { recursive: true });
    writeFileSync(bad, 'not json\n');
    return w;
  }
  // eslint-disable-next-line no-control-regex
  const CONTROLS = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

  it('prints no escape sequence or control character from titles, models, paths or notes', async () => {
    const w = hostileWorld();
    for (const view of ['daily', 'session']) {
      const { out, err } = await run([view, '--source', 'all'], w);
      expect(out, view).toMatch(/evil|x/);
      expect(out, view).not.toMatch(CONTROLS);
      expect(err, view).toMatch(/not valid JSON/);
      expect(err, view).not.toMatch(CONTROLS);
    }
    const { out } = await run(['session'], w);
    expect(out).toMatch(/^Nice title\s/m);
    const head = (await run(['--project', `evil${CLEAR}dir`], w)).out.split('\n')[0]!;
    expect(head).not.toMatch(CONTROLS);
  });

  it('--json keeps the text as written, every control escaped', async () => {
    const w = hostileWorld();
    const { out } = await run(['session', '--json'], w);
    expect(out).not.toMatch(CONTROLS);
    const j = JSON.parse(out) as { sessions: { title: string; models: string[] }[] };
    expect(j.sessions.map((s) => s.title)).toContain(`Nice title${OSC52}${C1_CSI}`);
  });
});

describe('carapace usage range', () => {
  it('refuses a range over ten years with a usage error before reading anything', async () => {
    const w = world();
    await expect(run(['--since', '0100-01-01'], w)).rejects.toThrow(UsageError);
    await expect(run(['--since', '2015-01-01'], w)).rejects.toThrow(/longer than 10 years/);
    await expect(run(['--since', '2020-01-01', '--until', '9999-12-31'], w)).rejects.toThrow(
      /earlier --until/,
    );
    expect((await run(['--since', '2016-01-01', '--json'], w)).code).toBe(0);
  });

  it('without --since starts at the earliest day with usage', async () => {
    const w = world();
    const j = JSON.parse((await run(['--json'], w)).out) as { from: string; to: string };
    expect(j).toMatchObject({ from: '2026-11-03', to: '2026-12-10' });
    const empty = JSON.parse((await run(['--json', '--until', '2020-01-01'], w)).out) as { from: string };
    expect(empty.from).toBe('2020-01-01');
  });
});

describe('carapace usage arguments', () => {
  it('is dispatched by the CLI with its arguments', () => {
    expect(parseArgs(['usage', 'monthly', '--json'])).toEqual({ kind: 'usage', argv: ['monthly', '--json'] });
  });

  it('defaults to daily, all sources, no range', () => {
    expect(parseUsageArgs([])).toEqual<UsageOptions>({
      view: 'daily',
      since: null,
      until: null,
      json: false,
      project: null,
      source: 'all',
    });
  });

  it('takes YYYY-MM-DD and YYYYMMDD, and only real days', () => {
    expect(parseDay('--since', '2026-02-28')).toBe('2026-02-28');
    expect(parseDay('--since', '20261101')).toBe('2026-11-01');
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-01', '202611-01', 'yesterday', ''])
      expect(() => parseDay('--since', bad), bad).toThrow(UsageError);
  });

  it('refuses unknown options, reports, sources and a backwards range with a clear error', () => {
    expect(() => parseUsageArgs(['--since', 'last week'])).toThrow(
      /--since must be a date as YYYY-MM-DD or YYYYMMDD, not "last week"/,
    );
    expect(() => parseUsageArgs(['--weekly'])).toThrow(/Unknown option "--weekly" for usage/);
    expect(() => parseUsageArgs(['weekly'])).toThrow(/Unknown report "weekly"/);
    expect(() => parseUsageArgs(['daily', 'monthly'])).toThrow(/one report/);
    expect(() => parseUsageArgs(['--source', 'codex'])).toThrow(
      /--source must be carapace, claude-code or all/,
    );
    expect(() => parseUsageArgs(['--since', '2026-11-02', '--until', '2026-11-01'])).toThrow(
      /is after --until/,
    );
    expect(() => parseUsageArgs(['--json=yes'])).toThrow(UsageError);
  });
});
