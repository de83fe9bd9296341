import { describe, expect, it } from 'vitest';
import { CostReport, type CostSum, type TokenCounts } from '@shared/domain/cost-report';
import { csvCell, exportTable, toCsv, usdOfMicros } from './index';

const tokens = (o: Partial<TokenCounts> = {}): TokenCounts => ({
  input: 0,
  output: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  cacheRead: 0,
  webSearches: 0,
  ...o,
});
const sum = (
  costMicros: number,
  records = 1,
  unpricedRecords = 0,
  t: Partial<TokenCounts> = {},
): CostSum => ({
  costMicros,
  tokens: tokens(t),
  records,
  unpricedRecords,
});

function report(): CostReport {
  return CostReport.parse({
    query: { scope: { kind: 'all' }, from: '2026-11-01', to: '2026-11-30', sources: ['carapace'] },
    priceTable: { version: '2026-12-02.1', date: '2026-12-02' },
    total: sum(1_500_001, 3, 1),
    days: [
      {
        day: '2026-11-01',
        byModel: { 'claude-sonnet-4-5': sum(1_500_001, 2) },
        total: sum(1_500_001, 2, 0, { input: 10, cacheWrite1h: 7 }),
      },
      { day: '2026-11-02', byModel: {}, total: sum(0, 0) },
    ],
    models: [
      { ...sum(1_500_001, 2), model: 'claude-sonnet-4-5', priced: true },
      { ...sum(0, 1, 1, { output: 5 }), model: 'claude-future-9', priced: false },
    ],
    sessions: [
      {
        ...sum(1_500_001, 3, 1),
        source: 'carapace',
        sessionId: 's1',
        title: '=HYPERLINK("http://x","go"), then\nmore',
        projectPath: '/work/a,b',
        models: ['claude-sonnet-4-5', 'claude-future-9'],
        cacheHitRatio: 0.123456,
        subAgentCostMicros: 250_000,
        turns: 2,
        durationMs: 61_500,
        firstAt: '2026-11-01T10:00:00.000Z',
        lastAt: '2026-11-01T10:01:01.500Z',
      },
    ],
    topTurns: [
      {
        ...sum(1_000_000),
        source: 'carapace',
        sessionId: 's1',
        title: '-1+1',
        turn: 1,
        at: '2026-11-01T10:00:00.000Z',
        models: ['claude-sonnet-4-5'],
      },
    ],
    claudeCode: { available: false, enabled: false },
    problems: [],
    builtAt: '2026-12-03T12:00:00.000Z',
  });
}

describe('usdOfMicros', () => {
  it('formats micro-dollars exactly, with rounding when fewer places are asked', () => {
    expect(usdOfMicros(0)).toBe('0.000000');
    expect(usdOfMicros(1_234_567)).toBe('1.234567');
    expect(usdOfMicros(123_456_789_012)).toBe('123456.789012');
    expect(usdOfMicros(1_234_567, 2)).toBe('1.23');
    expect(usdOfMicros(1_235_000, 2)).toBe('1.24');
    expect(usdOfMicros(994_999, 2)).toBe('0.99');
    expect(usdOfMicros(995_000, 2)).toBe('1.00');
    expect(() => usdOfMicros(-1)).toThrow(RangeError);
    expect(() => usdOfMicros(0.5)).toThrow(RangeError);
  });
});

describe('csvCell', () => {
  it('quotes every text cell per RFC 4180 and defuses formula starts', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const bad of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', ' =1+1', '\n=HYPERLINK("x")', '＝1'])
      expect(csvCell(bad), JSON.stringify(bad)).toMatch(/^"'/);
    expect(csvCell('=a,b')).toBe(`"'=a,b"`);
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
    expect(csvCell(true)).toBe('true');
    expect(csvCell('1.500001')).toBe('1.500001');
  });

  it("keeps a ';'-separated formula inside one quoted cell (spreadsheets in ;-separator locales)", () => {
    const dde = `notes;=cmd|' /C calc'!A0`;
    expect(csvCell(dde)).toBe(`"notes;=cmd|' /C calc'!A0"`);
    expect(toCsv(['title', 'n'], [[dde, 1]])).toBe(`"title","n"\r\n"notes;=cmd|' /C calc'!A0",1\r\n`);
  });
});

describe('exportTable', () => {
  it('names the file for the table and the range', () => {
    expect(exportTable(report(), 'sessions', 'csv').fileName).toBe(
      'carapace-sessions-2026-11-01_2026-11-30.csv',
    );
    expect(exportTable(report(), 'days', 'json')).toMatchObject({
      fileName: 'carapace-days-2026-11-01_2026-11-30.json',
      mimeType: 'application/json',
    });
  });

  it('writes the sessions table as CSV: header, CRLF rows, money to the micro-dollar, hostile title defused', () => {
    const { text, mimeType } = exportTable(report(), 'sessions', 'csv');
    expect(mimeType).toBe('text/csv;charset=utf-8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      [
        'source,session_id,title,project_path,models,cost_usd,input_tokens,output_tokens,cache_write_5m_tokens',
        'cache_write_1h_tokens,cache_read_tokens,web_searches,responses,unpriced_responses,cache_hit_ratio',
        'sub_agent_cost_usd,turns,duration_seconds,first_at,last_at',
      ]
        .join(',')
        .split(',')
        .map((h) => `"${h}"`)
        .join(','),
    );
    expect(text).toContain(
      `"carapace","s1","'=HYPERLINK(""http://x"",""go""), then\nmore","/work/a,b","claude-sonnet-4-5 claude-future-9",1.500001,`,
    );
    expect(text).toContain(',0.1235,0.250000,2,62,"2026-11-01T10:00:00.000Z","2026-11-01T10:01:01.500Z"\r\n');
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('leaves the cost of an all-unpriced row empty, never 0', () => {
    const models = exportTable(report(), 'models', 'csv').text.split('\r\n');
    expect(models[1]).toBe('"claude-sonnet-4-5",true,1.500001,0,0,0,0,0,0,2,0');
    expect(models[2]).toBe('"claude-future-9",false,,0,5,0,0,0,0,1,1');
    const json = JSON.parse(exportTable(report(), 'models', 'json').text) as {
      rows: Record<string, unknown>[];
    };
    expect(json.rows[1]).toMatchObject({ model: 'claude-future-9', cost_usd: null, output_tokens: 5 });
  });

  it('writes days (empty days included) and turns; JSON has the same rows with money as numbers', () => {
    const days = exportTable(report(), 'days', 'csv').text.split('\r\n');
    expect(days.slice(1, 3)).toEqual([
      '"2026-11-01","claude-sonnet-4-5",1.500001,10,0,0,7,0,0,2,0',
      '"2026-11-02","",0.000000,0,0,0,0,0,0,0,0',
    ]);
    expect(exportTable(report(), 'turns', 'csv').text).toContain(`"carapace","s1","'-1+1",1,`);
    const json = JSON.parse(exportTable(report(), 'sessions', 'json').text) as Record<string, unknown> & {
      rows: Record<string, unknown>[];
    };
    expect(json).toMatchObject({
      table: 'sessions',
      from: '2026-11-01',
      to: '2026-11-30',
      priceTable: { version: '2026-12-02.1' },
    });
    expect(json.rows[0]).toMatchObject({
      session_id: 's1',
      cost_usd: 1.500001,
      sub_agent_cost_usd: 0.25,
      turns: 2,
    });
    // JSON has no formula problem: the title is kept as written.
    expect(json.rows[0]!.title).toBe('=HYPERLINK("http://x","go"), then\nmore');
  });
});
