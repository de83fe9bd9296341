import {
  appendFileSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  readFileSync,
  writeFileSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectSlug } from '../../../platform/paths';
import { tempDir } from '../../../test-support/temp';
import { PRICE_TABLE, priceResponse } from '../pricing';
import { LEDGER_FILE, UsageLedger, localDay } from './index';
import { readCarapaceFile } from './read-carapace';
import { appendUsage, type UsageSpec, usageLine, writeSession } from './test-transcripts';

const ALL = { projectPaths: null, from: '2026-01-01', to: '2026-12-31', sources: ['carapace' as const] };

function seed(home: string) {
  const a: UsageSpec[] = [
    {
      apiId: 'msg_a1',
      model: 'claude-opus-4-1',
      tokens: { input: 100, output: 50 },
      costMicros: 5_000,
      turn: 1,
      at: '2026-03-02T10:00:00.000Z',
    },
    {
      apiId: 'msg_a2',
      model: 'claude-sonnet-4-5',
      tokens: { input: 10, output: 5, cacheRead: 90 },
      costMicros: 700,
      turn: 1,
      at: '2026-03-02T10:01:00.000Z',
    },
    {
      apiId: 'msg_a3',
      model: 'claude-opus-4-1',
      tokens: { input: 200, cacheWrite5m: 30, cacheWrite1h: 20 },
      costMicros: 9_000,
      turn: 2,
      at: '2026-03-03T10:00:00.000Z',
    },
    {
      apiId: 'msg_a4',
      model: 'mystery-model',
      tokens: { input: 7, output: 3 },
      costMicros: null,
      turn: 2,
      at: '2026-03-03T10:02:00.000Z',
    },
  ];
  const b: UsageSpec[] = [
    {
      apiId: 'msg_b1',
      model: 'claude-sonnet-4-5',
      tokens: { input: 1, output: 2, webSearches: 1 },
      costMicros: 10_300,
      turn: 1,
      at: '2026-03-03T12:00:00.000Z',
    },
  ];
  const sub: UsageSpec[] = [
    {
      apiId: 'msg_s1',
      model: 'claude-haiku-4-5',
      tokens: { input: 40, output: 4 },
      costMicros: 60,
      turn: 1,
      at: '2026-03-02T10:00:30.000Z',
    },
  ];
  const fa = writeSession({
    carapaceHome: home,
    projectPath: '/work/alpha',
    sessionId: 'sess-a',
    title: 'Fix the parser',
    usages: a,
  });
  const fb = writeSession({
    carapaceHome: home,
    projectPath: '/work/beta',
    sessionId: 'sess-b',
    prompt: '  Why is\nthe build slow?  ',
    usages: b,
  });
  const fs = writeSession({
    carapaceHome: home,
    projectPath: '/work/alpha',
    sessionId: 'sess-a',
    agent: { agentId: 'agent-1', name: 'explorer', agentType: 'Explore' },
    usages: sub,
  });
  return { fa, fb, fs, all: [...a, ...b, ...sub] };
}

/** The sums by hand: costs of priced records, every record's tokens. */
function byHand(us: UsageSpec[]) {
  return {
    costMicros: us.reduce((s, u) => s + (u.costMicros ?? 0), 0),
    records: us.length,
    unpricedRecords: us.filter((u) => u.costMicros === null).length,
    input: us.reduce((s, u) => s + (u.tokens?.input ?? 0), 0),
    output: us.reduce((s, u) => s + (u.tokens?.output ?? 0), 0),
  };
}

function totals(l: UsageLedger) {
  const r = l.report(ALL);
  return {
    costMicros: r.total.costMicros,
    records: r.total.records,
    unpricedRecords: r.total.unpricedRecords,
    input: r.total.tokens.input,
    output: r.total.tokens.output,
  };
}

/** A cache file as a tamperer sees it. */
interface FileJson extends Record<string, unknown> {
  path: string;
  n: number;
  size: unknown;
  earliestAt: unknown;
  info: { source: unknown } | null;
}
interface CacheJson extends Record<string, unknown> {
  version: number;
  /** Packed in the file (one text and each one's end); a plain list while being edited. */
  strings: string[];
  files: FileJson[];
  columns: Record<string, unknown>;
}
interface EditableCache {
  json: CacheJson;
  cols: Record<string, number[]>;
  types: Record<string, string>;
}

const WIDTH: Record<string, number> = { i8: 1, i16: 2, i32: 4, f64: 8 };

/** The cache file's JSON, its columns decoded from base64 to plain arrays. */
function decodeCache(text: string): EditableCache {
  const raw = JSON.parse(text) as CacheJson;
  const packed = raw.strings as unknown as { text: string; ends: { type: string; data: string } };
  const ends = decodeColumn(packed.ends);
  const json: CacheJson = { ...raw, strings: ends.map((end, i) => packed.text.slice(ends[i - 1] ?? 0, end)) };
  const cols: Record<string, number[]> = {};
  const types: Record<string, string> = {};
  for (const [name, c] of Object.entries(json.columns) as [string, { type: string; data: string }][]) {
    cols[name] = decodeColumn(c);
    types[name] = ['key', 'model', 'pv'].includes(name) ? 'i32' : 'f64';
  }
  return { json, cols, types };
}

function decodeColumn(c: { type: string; data: string }): number[] {
  const b = Buffer.from(c.data, 'base64');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: number[] = [];
  for (let i = 0; i < b.length / WIDTH[c.type]!; i++)
    out.push(
      c.type === 'f64'
        ? view.getFloat64(i * 8, true)
        : c.type === 'i32'
          ? view.getInt32(i * 4, true)
          : c.type === 'i16'
            ? view.getInt16(i * 2, true)
            : view.getInt8(i),
    );
  return out;
}

/** Back to the file's text: index columns as 32-bit integers, the others as 64-bit floats. */
function encodeCache(c: EditableCache): string {
  const columns: Record<string, { type: string; data: string }> = {};
  for (const [name, values] of Object.entries(c.cols)) {
    const type = c.types[name] ?? 'f64';
    const b = Buffer.alloc(values.length * (WIDTH[type] ?? 8));
    values.forEach((v, i) => (type === 'i32' ? b.writeInt32LE(v, i * 4) : b.writeDoubleLE(v, i * 8)));
    columns[name] = { type, data: b.toString('base64') };
  }
  const list = c.json.strings;
  const ends = Buffer.alloc(list.length * 4);
  let end = 0;
  list.forEach((x, i) => ends.writeInt32LE((end += x.length), i * 4));
  const strings = {
    text: list.join(''),
    count: list.length,
    ends: { type: 'i32', data: ends.toString('base64') },
  };
  return JSON.stringify({ ...c.json, strings, columns });
}

describe('UsageLedger', () => {
  it('sums the usage lines as by hand, by day, model and session, with sub-agents rolled up', async () => {
    const home = tempDir();
    const { all } = seed(home);
    const l = new UsageLedger({ carapaceHome: home });
    expect((await l.refresh()).changedFiles).toBe(3);
    expect(totals(l)).toEqual(byHand(all));
    const r = l.report({ ...ALL, from: '2026-03-01', to: '2026-03-04' });
    expect(r.days.map((d) => d.day)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
    expect(r.days.reduce((s, d) => s + d.total.costMicros, 0)).toBe(byHand(all).costMicros);
    const mystery = r.models.find((m) => m.model === 'mystery-model')!;
    expect(mystery).toMatchObject({ priced: false, costMicros: 0, unpricedRecords: 1, records: 1 });
    expect(r.models[0]).toMatchObject({ model: 'claude-opus-4-1', costMicros: 14_000, priced: true });
    const a = r.sessions.find((s) => s.sessionId === 'sess-a')!;
    expect(a).toMatchObject({
      source: 'carapace',
      title: 'Fix the parser',
      projectPath: '/work/alpha',
      costMicros: 5_000 + 700 + 9_000 + 60,
      subAgentCostMicros: 60,
      turns: 2,
      unpricedRecords: 1,
    });
    expect(a.models).toEqual(['claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4-5', 'mystery-model']);
    expect(a.durationMs).toBe(
      Date.parse('2026-03-03T10:02:00.000Z') - Date.parse('2026-03-02T10:00:00.000Z'),
    );
    expect(r.sessions.find((s) => s.sessionId === 'sess-b')!.title).toBe('Why is the build slow?');
    // The sub-agent ran during the main agent's first turn: its cost is that turn's.
    expect(r.topTurns.map((t) => [t.sessionId, t.turn, t.costMicros])).toEqual([
      ['sess-b', 1, 10_300],
      ['sess-a', 2, 9_000],
      ['sess-a', 1, 5_760],
    ]);
    expect(r.topTurns.find((t) => t.sessionId === 'sess-a' && t.turn === 1)!.costMicros).toBe(5_760);
    // A project's scope.
    const alpha = l.report({ ...ALL, projectPaths: ['/work/alpha'] });
    expect(alpha.total.costMicros).toBe(14_760);
  });

  it('gives a session its cost by model, by turn and by member', async () => {
    const home = tempDir();
    seed(home);
    const l = new UsageLedger({ carapaceHome: home });
    await l.refresh();
    const d = l.sessionDetail('sess-a')!;
    expect(d.total.costMicros).toBe(14_760);
    expect(d.byTurn.map((t) => [t.turn, t.costMicros])).toEqual([
      [1, 5_760],
      [2, 9_000],
    ]);
    expect(d.byMember.map((m) => [m.agentId, m.name, m.costMicros])).toEqual([
      [null, 'Main agent', 14_700],
      ['agent-1', 'explorer', 60],
    ]);
    expect(l.sessionDetail('nope')).toBeNull();
  });

  it('day spend is Carapace spend per local day and per project folder', async () => {
    const home = tempDir();
    seed(home);
    const l = new UsageLedger({ carapaceHome: home });
    await l.refresh();
    const day = localDay(Date.parse('2026-03-03T12:00:00.000Z'));
    const spend = l.daySpend(day);
    expect(spend.allMicros).toBe(
      [
        ['2026-03-03T10:00:00.000Z', 9_000],
        ['2026-03-03T12:00:00.000Z', 10_300],
        ['2026-03-02T10:00:00.000Z', 5_000],
        ['2026-03-02T10:01:00.000Z', 700],
        ['2026-03-02T10:00:30.000Z', 60],
      ]
        .filter(([at]) => localDay(Date.parse(at as string)) === day)
        .reduce((s, [, c]) => s + (c as number), 0),
    );
    expect(Object.values(spend.byProject).reduce((s, v) => s + v, 0)).toBe(spend.allMicros);
  });

  it('rebuilds a deleted, garbage, truncated, other-version or tampered cache with the same totals', async () => {
    const home = tempDir();
    const { all } = seed(home);
    const first = new UsageLedger({ carapaceHome: home });
    await first.refresh();
    const cache = path.join(home, LEDGER_FILE);
    const good = readFileSync(cache, 'utf8');
    /** The good cache, edited with its columns as plain arrays. */
    const edited = (edit: (c: EditableCache) => void) => () => {
      const c = decodeCache(good);
      edit(c);
      writeFileSync(cache, encodeCache(c));
    };
    const corruptions: [string, () => void][] = [
      ['deleted', () => rmSync(cache)],
      ['garbage', () => writeFileSync(cache, 'not json at all {')],
      ['truncated', () => writeFileSync(cache, good.slice(0, Math.floor(good.length / 2)))],
      ['empty', () => truncateSync(cache, 0)],
      ['other version', edited((c) => (c.json.version = 1))],
      ['a column one short', edited((c) => c.cols.input!.pop())],
      ['a column one long', edited((c) => c.cols.cost!.push(5))],
      ['a column missing', edited((c) => delete c.cols.cr)],
      ['a model index past the strings', edited((c) => (c.cols.model![0] = c.json.strings.length))],
      ['a key index below -1', edited((c) => (c.cols.key![1] = -2))],
      ['a price version index past the strings', edited((c) => (c.cols.pv![0] = 1e6))],
      ['a NaN cost', edited((c) => (c.cols.cost![0] = NaN))],
      ['an infinite time', edited((c) => (c.cols.at![2] = Infinity))],
      ['a negative cost', edited((c) => (c.cols.cost![1] = -5))],
      ['a negative token count', edited((c) => (c.cols.output![0] = -100))],
      ['a fractional token count', edited((c) => (c.cols.input![0] = 0.5))],
      ['an infinite token count', edited((c) => (c.cols.cr![0] = Infinity))],
      ['a negative turn', edited((c) => (c.cols.turn![0] = -1))],
      ['an index column as floats', edited((c) => (c.types.model = 'f64'))],
      ['an unknown column type', edited((c) => (c.types.at = 'u64'))],
      ['a duplicated string', edited((c) => c.json.strings.splice(1, 0, c.json.strings[1]!))],
      ['strings out of order', edited((c) => c.json.strings.reverse())],
      [
        'a string count one short',
        () =>
          writeFileSync(
            cache,
            encodeCache(decodeCache(good)).replace(
              /"count":(\d+)/,
              (_, k: string) => `"count":${Number(k) - 1}`,
            ),
          ),
      ],
      [
        'a strings text longer than its strings',
        () => writeFileSync(cache, encodeCache(decodeCache(good)).replace('"text":"', '"text":"x')),
      ],
      ['a file claiming fewer records', edited((c) => (c.json.files[0]!.n -= 1))],
      ['the same file twice', edited((c) => (c.json.files[1]!.path = c.json.files[0]!.path))],
      ['a file with a NaN size', edited((c) => (c.json.files[0]!.size = 'NaN'))],
      ['a file with a later earliest time', edited((c) => (c.json.files[0]!.earliestAt = 8.64e15))],
      ['a file with records but no transcript', edited((c) => (c.json.files[0]!.info = null))],
      ['an info of an unknown source', edited((c) => (c.json.files[0]!.info!.source = 'other'))],
      [
        // JSON.parse makes `__proto__` an own key: it must supply nothing the entry lacks.
        'a __proto__ key in place of a column',
        () => {
          const c = decodeCache(good);
          const at = JSON.stringify((JSON.parse(good) as CacheJson).columns.at);
          delete c.cols.at;
          writeFileSync(cache, encodeCache(c).replace('"columns":{', `"columns":{"__proto__":{"at":${at}},`));
        },
      ],
      [
        "a __proto__ key in place of a file entry's count",
        () => {
          const c = decodeCache(good);
          const n = c.json.files[0]!.n;
          delete (c.json.files[0] as Partial<FileJson>).n;
          writeFileSync(cache, encodeCache(c).replace('"files":[{', `"files":[{"__proto__":{"n":${n}},`));
        },
      ],
      [
        'a constructor key in place of the version',
        edited((c) => {
          const { version: _, ...rest } = c.json;
          c.json = { ...rest, constructor: 2 } as unknown as CacheJson;
        }),
      ],
    ];
    for (const [what, corrupt] of corruptions) {
      corrupt();
      const l = new UsageLedger({ carapaceHome: home });
      const { changedFiles } = await l.refresh();
      expect([what, changedFiles]).toEqual([what, 3]);
      expect([what, totals(l)]).toEqual([what, byHand(all)]);
      // …and the rebuilt cache is trusted by the next process.
      const again = new UsageLedger({ carapaceHome: home });
      expect((await again.refresh()).changedFiles).toBe(0);
      expect(totals(again)).toEqual(byHand(all));
    }
    // The editing itself changes nothing: the good cache, decoded and encoded again, is trusted.
    writeFileSync(cache, encodeCache(decodeCache(good)));
    const trusted = new UsageLedger({ carapaceHome: home });
    expect((await trusted.refresh()).changedFiles).toBe(0);
    expect(totals(trusted)).toEqual(byHand(all));
  });

  it('picks up a transcript appended after the build, and forgets a deleted one', async () => {
    const home = tempDir();
    const { fa, fb, all } = seed(home);
    const l = new UsageLedger({ carapaceHome: home });
    await l.refresh();
    const extra: UsageSpec = {
      apiId: 'msg_a5',
      model: 'claude-opus-4-1',
      tokens: { input: 1 },
      costMicros: 123,
      turn: 2,
      at: '2026-03-03T11:00:00.000Z',
    };
    appendUsage(fa, extra);
    expect((await l.refresh()).changedFiles).toBe(1);
    expect(totals(l)).toEqual(byHand([...all, extra]));
    // A new process trusts the cache for the unchanged files and sees the same.
    const cold = new UsageLedger({ carapaceHome: home });
    expect((await cold.refresh()).changedFiles).toBe(0);
    expect(totals(cold)).toEqual(byHand([...all, extra]));
    rmSync(fb);
    expect((await l.refresh()).changedFiles).toBe(1);
    expect(totals(l)).toEqual(byHand([...all, extra].filter((u) => !u.apiId!.startsWith('msg_b'))));
    expect(l.report(ALL).sessions.map((s) => s.sessionId)).not.toContain('sess-b');
  });

  it('re-reads a transcript rewritten to the same size when its mtime changed', async () => {
    const home = tempDir();
    const { fb } = seed(home);
    const l = new UsageLedger({ carapaceHome: home });
    await l.refresh();
    const text = readFileSync(fb, 'utf8');
    writeFileSync(fb, text.replace('"costMicros":10300', '"costMicros":10400'));
    const t = statSync(fb).mtime;
    utimesSync(fb, t, new Date(t.getTime() + 5_000));
    expect((await l.refresh()).changedFiles).toBe(1);
    expect(l.report({ ...ALL, projectPaths: ['/work/beta'] }).total.costMicros).toBe(10_400);
  });

  it('keeps model ids and project folders named __proto__, constructor or hasOwnProperty apart', async () => {
    const home = tempDir();
    const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
    const usages = names.map((model, i): UsageSpec => ({
      apiId: `msg_p${i}`,
      model,
      tokens: { input: 10 * (i + 1), output: i + 1 },
      costMicros: 1_000 * (i + 1),
      turn: 1,
      at: `2026-03-02T1${i}:00:00.000Z`,
    }));
    usages.forEach((u, i) =>
      writeSession({ carapaceHome: home, projectPath: names[i]!, sessionId: `sess-p${i}`, usages: [u] }),
    );
    for (const l of [new UsageLedger({ carapaceHome: home }), new UsageLedger({ carapaceHome: home })]) {
      await l.refresh();
      expect(totals(l)).toEqual(byHand(usages));
      const r = l.report(ALL);
      expect(Object.fromEntries(r.models.map((m) => [m.model, m.costMicros]))).toEqual(
        Object.fromEntries(names.map((n, i) => [n, 1_000 * (i + 1)])),
      );
      const day = r.days.find((d) => d.day === '2026-03-02')!;
      // Own keys, each with its own sum: none replaced the object's prototype or read an inherited one.
      expect(Object.keys(day.byModel).sort()).toEqual([...names].sort());
      expect(Object.getPrototypeOf(day.byModel)).toBe(Object.prototype);
      for (const [i, n] of names.entries())
        expect(Object.getOwnPropertyDescriptor(day.byModel, n)?.value).toMatchObject({
          costMicros: 1_000 * (i + 1),
          records: 1,
        });
      const d = l.sessionDetail('sess-p0')!;
      expect(d.byModel.map((m) => [m.model, m.costMicros])).toEqual([['__proto__', 1_000]]);
      const spend = l.daySpend('2026-03-02');
      expect(spend.allMicros).toBe(10_000);
      expect(Object.keys(spend.byProject).sort()).toEqual([...names].sort());
      for (const [i, n] of names.entries())
        expect(Object.getOwnPropertyDescriptor(spend.byProject, n)?.value).toBe(1_000 * (i + 1));
    }
  });

  it('counts a message id found in two transcripts once', async () => {
    const home = tempDir();
    const u: UsageSpec = {
      apiId: 'msg_same',
      model: 'claude-opus-4-1',
      tokens: { input: 5 },
      costMicros: 1_000,
      turn: 1,
      at: '2026-03-02T10:00:00.000Z',
    };
    writeSession({ carapaceHome: home, projectPath: '/work/alpha', sessionId: 'first', usages: [u] });
    writeSession({
      carapaceHome: home,
      projectPath: '/work/alpha',
      sessionId: 'resumed',
      usages: [
        { ...u, at: '2026-03-02T11:00:00.000Z' },
        { ...u, apiId: 'msg_other', at: '2026-03-02T11:00:00.000Z' },
      ],
    });
    // A response without an id is never deduplicated.
    writeSession({
      carapaceHome: home,
      projectPath: '/work/alpha',
      sessionId: 'no-ids',
      usages: [
        { ...u, apiId: null },
        { ...u, apiId: null },
      ],
    });
    const l = new UsageLedger({ carapaceHome: home });
    await l.refresh();
    const r = l.report(ALL);
    expect(r.total.records).toBe(4);
    expect(r.total.costMicros).toBe(4_000);
    // The earliest copy keeps it.
    expect(r.sessions.find((s) => s.sessionId === 'first')!.records).toBe(1);
    expect(r.sessions.find((s) => s.sessionId === 'resumed')!.records).toBe(1);
    // The same from the cache in a new process, and after a transcript there grows with a copy of a
    // reply another transcript holds and a new one (the cached strings taken up again, then added to).
    const cold = new UsageLedger({ carapaceHome: home });
    expect((await cold.refresh()).changedFiles).toBe(0);
    expect(cold.report(ALL).total).toMatchObject({ records: 4, costMicros: 4_000 });
    const noIds = path.join(home, 'projects', projectSlug('/work/alpha'), 'no-ids.jsonl');
    appendUsage(noIds, { ...u, apiId: 'msg_other', at: '2026-03-02T12:00:00.000Z' });
    appendUsage(noIds, { ...u, apiId: 'msg_new', at: '2026-03-02T12:00:00.000Z' });
    expect((await cold.refresh()).changedFiles).toBe(1);
    expect(cold.report(ALL).total).toMatchObject({ records: 5, costMicros: 5_000 });
    // The file with the earlier first record now holds the copy that counts.
    const bySession = (l: UsageLedger) =>
      Object.fromEntries(l.report(ALL).sessions.map((x) => [x.sessionId, x.records]));
    expect(bySession(cold)).toEqual({ first: 1, 'no-ids': 4 });
    const again = new UsageLedger({ carapaceHome: home });
    expect((await again.refresh()).changedFiles).toBe(0);
    expect(again.report(ALL).total).toMatchObject({ records: 5, costMicros: 5_000 });
    expect(bySession(again)).toEqual({ first: 1, 'no-ids': 4 });
  });

  it('skips hostile lines with a problem: huge figures, negative tokens, a non-string model, a 50 MB line, torn JSON', async () => {
    const home = tempDir();
    const good: UsageSpec = {
      apiId: 'msg_ok',
      model: 'claude-opus-4-1',
      tokens: { input: 5 },
      costMicros: 1_000,
      turn: 1,
      at: '2026-03-02T10:00:00.000Z',
    };
    const file = writeSession({
      carapaceHome: home,
      projectPath: '/work/alpha',
      sessionId: 's',
      usages: [good],
    });
    const base = JSON.parse(
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .find((x) => x.includes('"type":"usage"'))!,
    ) as { tokens: Record<string, number> };
    const bad = (patch: object) =>
      `${JSON.stringify({ ...base, apiId: `msg_${Math.random()}`, ...patch })}\n`;
    appendFileSync(file, bad({ tokens: { ...base.tokens, input: 1e15 } }));
    appendFileSync(file, bad({ costMicros: 1e300 }));
    appendFileSync(file, bad({ tokens: { ...base.tokens, output: -5 } }));
    appendFileSync(file, bad({ model: 42 }));
    appendFileSync(file, `{"type":"usage","apiId":"msg_big","note":"${'x'.repeat(50 * 1024 * 1024)}"}\n`);
    appendFileSync(file, '{"type":"usage","apiId":"msg_torn",\n');
    appendFileSync(file, bad({ apiId: 'msg_fine_after', costMicros: 7 }));
    const l = new UsageLedger({ carapaceHome: home });
    const { problems } = await l.refresh();
    const r = l.report(ALL);
    expect(r.total.records).toBe(2);
    expect(r.total.costMicros).toBe(1_007);
    expect(problems.filter((p) => p.includes('skipped'))).toHaveLength(6);
    expect(r.problems.join('\n')).toMatch(/longer than any usage line/);
  });

  it('skips records with a time, cost or turn out of range at read, with a count, and trusts the cache after', async () => {
    const home = tempDir();
    const good: UsageSpec = {
      apiId: 'msg_ok',
      model: 'claude-opus-4-1',
      tokens: { input: 5 },
      costMicros: 1_000,
      turn: 1,
      at: '2026-03-02T10:00:00.000Z',
    };
    const file = writeSession({
      carapaceHome: home,
      projectPath: '/work/alpha',
      sessionId: 's',
      usages: [good],
    });
    const line = (apiId: string, patch: string) =>
      `${JSON.stringify({ ...usageLine(good), apiId }).replace(/}$/, `,${patch}}`)}\n`;
    // Raw JSON: 1e400 parses to Infinity; the last duplicate key wins.
    appendFileSync(file, line('msg_inf_cost', '"costMicros":1e400'));
    appendFileSync(
      file,
      line(
        'msg_inf_tokens',
        '"tokens":{"input":1e400,"output":0,"cacheWrite5m":0,"cacheWrite1h":0,"cacheRead":0,"webSearches":0}',
      ),
    );
    appendFileSync(file, line('msg_nan_time', '"at":"+275760-09-13T00:00:00.001Z"'));
    appendFileSync(file, line('msg_not_a_time', '"at":"NaN"'));
    // Whole and non-negative, so the line's schema takes it, but beyond the ledger's turn column.
    appendFileSync(file, line('msg_huge_turn', '"turn":3000000000'));
    appendFileSync(file, line('msg_fine_after', '"costMicros":7'));
    const l = new UsageLedger({ carapaceHome: home });
    const { problems } = await l.refresh();
    const expected = { costMicros: 1_007, records: 2, unpricedRecords: 0, input: 10, output: 0 };
    expect(totals(l)).toEqual(expected);
    expect(problems.filter((p) => p.includes('skipped'))).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/1 record skipped: a time, token count, cost or turn/);
    const r = l.report(ALL);
    expect(r.days.reduce((sum, d) => sum + d.total.records, 0)).toBe(2);
    expect(r.topTurns.every((t) => Number.isFinite(t.costMicros) && t.turn >= 0)).toBe(true);
    expect(l.sessionDetail('s')!.byTurn.map((t) => t.turn)).toEqual([1]);
    // The cache written from these records passes its own checks: the next process trusts it.
    const next = new UsageLedger({ carapaceHome: home });
    expect((await next.refresh()).changedFiles).toBe(0);
    expect(totals(next)).toEqual(expected);
  });

  it('does not follow a symlinked transcript pointing outside $CARAPACE_HOME', async () => {
    const home = tempDir();
    const outside = tempDir();
    seed(home);
    const elsewhere = writeSession({
      carapaceHome: outside,
      projectPath: '/work/alpha',
      sessionId: 'foreign',
      usages: [
        {
          apiId: 'msg_x',
          model: 'claude-opus-4-1',
          costMicros: 999_999,
          turn: 1,
          at: '2026-03-02T10:00:00.000Z',
        },
      ],
    });
    symlinkSync(elsewhere, path.join(home, 'projects', projectSlug('/work/alpha'), 'foreign.jsonl'));
    const l = new UsageLedger({ carapaceHome: home });
    const { problems } = await l.refresh();
    expect(l.report(ALL).sessions.map((s) => s.sessionId)).not.toContain('foreign');
    expect(problems.join('\n')).toMatch(/symbolic link/);
    // The reader itself, handed the link (as when a transcript is swapped for one after the
    // listing), refuses it rather than reading where it leads.
    const r = readCarapaceFile(path.join(home, 'projects', projectSlug('/work/alpha'), 'foreign.jsonl'));
    expect(r.info).toBeNull();
    expect(r.records).toEqual([]);
    expect(r.problems.join('\n')).toMatch(/symbolic link/);
  });

  it('does not follow a symlinked subagents or session folder pointing outside $CARAPACE_HOME', async () => {
    const home = tempDir();
    const outside = tempDir();
    const { all } = seed(home);
    const foreign: UsageSpec = {
      apiId: 'msg_foreign',
      model: 'claude-opus-4-1',
      costMicros: 999_999,
      turn: 1,
      at: '2026-03-02T10:00:00.000Z',
    };
    // Outside: a session folder with a sub-agent's transcript in it.
    const elsewhere = writeSession({
      carapaceHome: outside,
      projectPath: '/work/alpha',
      sessionId: 'sess-b',
      agent: { agentId: 'agent-x', name: 'spy', agentType: 'Explore' },
      usages: [foreign],
    });
    const subagentsOutside = path.dirname(elsewhere);
    const projectDir = path.join(home, 'projects', projectSlug('/work/beta'));
    // A real session folder whose `subagents` is a link to the outside one…
    mkdirSync(path.join(projectDir, 'sess-b'), { recursive: true });
    symlinkSync(subagentsOutside, path.join(projectDir, 'sess-b', 'subagents'));
    // …and a session folder that is itself a link.
    symlinkSync(path.dirname(subagentsOutside), path.join(projectDir, 'sess-linked'));
    const l = new UsageLedger({ carapaceHome: home });
    const { problems } = await l.refresh();
    expect(totals(l)).toEqual(byHand(all));
    expect(l.sessionDetail('sess-b')!.byMember.map((m) => m.name)).toEqual(['Main agent']);
    expect(problems.join('\n')).toMatch(/subagents: skipped, a symbolic link/);
  });

  it('passes over a FIFO named like a transcript without waiting on it', async () => {
    const home = tempDir();
    const { all } = seed(home);
    const projectDir = path.join(home, 'projects', projectSlug('/work/alpha'));
    const fifo = path.join(projectDir, 'sess-fifo.jsonl');
    const subFifo = path.join(projectDir, 'sess-a', 'subagents', 'agent-fifo.jsonl');
    execFileSync('mkfifo', [fifo, subFifo]);
    // Nothing ever writes to them: a blocking open would hang this test.
    const l = new UsageLedger({ carapaceHome: home });
    await l.refresh();
    expect(totals(l)).toEqual(byHand(all));
    // The reader itself, handed the FIFO (as when a transcript is swapped for one after the
    // listing), opens it without blocking and refuses it.
    const r = readCarapaceFile(fifo);
    expect(r.info).toBeNull();
    expect(r.problems.join('\n')).toMatch(/not a regular file/);
  });

  it('ignores other .jsonl files (mailboxes, rosters) and memory folders', async () => {
    const home = tempDir();
    const { all } = seed(home);
    const dir = path.join(home, 'projects', projectSlug('/work/alpha'));
    writeFileSync(path.join(dir, 'team-mailbox.jsonl'), '{"type":"message","from":"x"}\n');
    mkdirSync(path.join(dir, 'memory'), { recursive: true });
    writeFileSync(path.join(dir, 'memory', 'x.jsonl'), 'garbage\n');
    const l = new UsageLedger({ carapaceHome: home });
    const { problems } = await l.refresh();
    expect(totals(l)).toEqual(byHand(all));
    expect(problems).toEqual([]);
  });

  it('prices older transcripts from their assistant messages when they have no usage lines', async () => {
    const home = tempDir();
    const file = writeSession({
      carapaceHome: home,
      projectPath: '/work/alpha',
      sessionId: 'old',
      usages: [
        {
          apiId: 'msg_o1',
          model: 'claude-opus-4-1',
          tokens: { input: 1000, output: 200, cacheRead: 50 },
          costMicros: 1,
          turn: 1,
          at: '2026-03-02T10:00:00.000Z',
        },
        {
          apiId: 'msg_o2',
          model: 'who-knows',
          tokens: { input: 10 },
          costMicros: 1,
          turn: 2,
          at: '2026-03-02T10:05:00.000Z',
        },
      ],
    });
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((x) => !x.includes('"type":"usage"'))
        .join('\n'),
    );
    const l = new UsageLedger({ carapaceHome: home });
    await l.refresh();
    const expected = priceResponse('claude-opus-4-1', {
      input: 1000,
      output: 200,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      cacheRead: 50,
      webSearches: 0,
    });
    expect(expected.kind).toBe('priced');
    const r = l.report(ALL);
    expect(r.total).toMatchObject({
      records: 2,
      unpricedRecords: 1,
      costMicros: expected.kind === 'priced' ? expected.micros : -1,
    });
    expect(l.sessionDetail('old')!.byTurn.map((t) => t.turn)).toEqual([1, 2]);
  });

  it('rebuilds a cache written under another price table: what it priced itself is priced again', async () => {
    const home = tempDir();
    const tokens = {
      input: 1000,
      output: 200,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      cacheRead: 50,
      webSearches: 0,
    };
    // An older transcript (no usage lines): the ledger prices its reply when it reads it.
    const old = writeSession({
      carapaceHome: home,
      projectPath: '/work/alpha',
      sessionId: 'old',
      usages: [
        {
          apiId: 'msg_o1',
          model: 'claude-opus-4-1',
          tokens,
          costMicros: 1,
          turn: 1,
          at: '2026-03-02T10:00:00.000Z',
        },
      ],
    });
    writeFileSync(
      old,
      readFileSync(old, 'utf8')
        .split('\n')
        .filter((x) => !x.includes('"type":"usage"'))
        .join('\n'),
    );
    // A current one: its usage line keeps the price it was given when the reply arrived.
    writeSession({
      carapaceHome: home,
      projectPath: '/work/alpha',
      sessionId: 'new',
      usages: [
        {
          apiId: 'msg_n1',
          model: 'claude-opus-4-1',
          tokens,
          costMicros: 4_321,
          turn: 1,
          at: '2026-03-02T11:00:00.000Z',
        },
      ],
    });
    const now = priceResponse('claude-opus-4-1', tokens);
    if (now.kind !== 'priced') throw new Error('the test model must be in the price table');
    const first = new UsageLedger({ carapaceHome: home });
    await first.refresh();
    expect(first.sessionDetail('old')!.total.costMicros).toBe(now.micros);
    // The cache as an earlier version of Carapace would have left it: the same records, the
    // ledger's own pricing done with an older table.
    const cache = path.join(home, LEDGER_FILE);
    const c = decodeCache(readFileSync(cache, 'utf8'));
    expect(c.json.priceTable).toBe(PRICE_TABLE.version);
    c.json.priceTable = 'an-older-table';
    c.cols.cost = c.cols.cost!.map((v) => (v === now.micros ? 1 : v));
    writeFileSync(cache, encodeCache(c));
    const l = new UsageLedger({ carapaceHome: home });
    expect((await l.refresh()).changedFiles).toBe(2);
    expect(l.sessionDetail('old')!.total.costMicros).toBe(now.micros);
    expect(l.sessionDetail('new')!.total.costMicros).toBe(4_321);
    // Rebuilt under this table, the cache is trusted again.
    const again = new UsageLedger({ carapaceHome: home });
    expect((await again.refresh()).changedFiles).toBe(0);
    expect(again.report(ALL).total.costMicros).toBe(now.micros + 4_321);
  });

  describe('in a time zone west of UTC', () => {
    const saved = process.env.TZ;
    afterEach(() => {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    });

    it('puts records on local days, a DST change included', async () => {
      process.env.TZ = 'America/New_York';
      const home = tempDir();
      writeSession({
        carapaceHome: home,
        projectPath: '/work/alpha',
        sessionId: 'ny',
        usages: [
          // 23:30 on 9 March in New York (EDT, UTC-4, since 8 March).
          { apiId: 'm1', model: 'claude-opus-4-1', costMicros: 1, turn: 1, at: '2026-03-10T03:30:00.000Z' },
          // 00:30 on 10 March.
          { apiId: 'm2', model: 'claude-opus-4-1', costMicros: 10, turn: 1, at: '2026-03-10T04:30:00.000Z' },
          // 23:59 on 7 March (EST, UTC-5): the day before the clocks change.
          { apiId: 'm3', model: 'claude-opus-4-1', costMicros: 100, turn: 1, at: '2026-03-08T04:59:00.000Z' },
          // 00:30 on 8 March (EST still: the change is at 02:00).
          {
            apiId: 'm4',
            model: 'claude-opus-4-1',
            costMicros: 1000,
            turn: 1,
            at: '2026-03-08T05:30:00.000Z',
          },
        ],
      });
      const l = new UsageLedger({ carapaceHome: home });
      await l.refresh();
      const r = l.report({ ...ALL, from: '2026-03-07', to: '2026-03-10' });
      expect(r.days.map((d) => [d.day, d.total.costMicros])).toEqual([
        ['2026-03-07', 100],
        ['2026-03-08', 1000],
        ['2026-03-09', 1],
        ['2026-03-10', 10],
      ]);
      expect(l.daySpend('2026-03-09').allMicros).toBe(1);
    });
  });
});
