import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp';
import { PRICE_TABLE } from '../pricing';
import { mergeClaudeCodeFiles } from './merge';
import { CLAUDE_CODE_COST_VERSION, MAX_LINE_BYTES, readClaudeCodeFile } from './read-file';
import { assistantLine, summaryLine, toolResultLine, userLine } from './test-fixture';

const SONNET = 'claude-sonnet-4-5-20250929';
const HAIKU = 'claude-haiku-4-5-20251001';
const base = { sessionId: 'sess-1', cwd: '/home/ana/shop' };

function transcript(lines: string[], name = 'sess-1.jsonl', slug = '-home-ana-shop'): string {
  const dir = path.join(tempDir(), 'projects', slug);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('readClaudeCodeFile', () => {
  it('prices each reply by the table: 5 min and 1 h writes apart, reads, output (µ$ = tokens × $/MTok)', () => {
    const file = transcript([
      userLine({ ...base, at: '2026-11-03T10:00:00.000Z', text: '  Fix the\n checkout  ' }),
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:05.000Z',
        model: SONNET,
        messageId: 'msg_1',
        requestId: 'req_1',
        input: 1000,
        output: 2000,
        cacheWrite5m: 4000,
        cacheWrite1h: 8000,
        cacheRead: 10_000,
      }),
    ]);
    const { info, records, problems } = readClaudeCodeFile(file);
    expect(problems).toEqual([]);
    expect(info).toEqual({
      source: 'claude-code',
      sessionId: 'sess-1',
      projectPath: '/home/ana/shop',
      title: 'Fix the checkout',
      agent: null,
    });
    expect(records).toHaveLength(1);
    const r = records[0]!;
    expect(r.tokens).toEqual({
      input: 1000,
      output: 2000,
      cacheWrite5m: 4000,
      cacheWrite1h: 8000,
      cacheRead: 10_000,
      webSearches: 0,
    });
    // Sonnet 4.5: 1000×3 + 2000×15 + 4000×3.75 + 8000×6 + 10000×0.30 = 3000+30000+15000+48000+3000
    expect(r.costMicros).toBe(99_000);
    expect(r.priceVersion).toBe(PRICE_TABLE.version);
    expect(r).toMatchObject({
      source: 'claude-code',
      key: 'msg_1:req_1',
      sessionId: 'sess-1',
      agentId: null,
      model: SONNET,
      turn: 1,
    });
    expect(r.at).toBe(Date.parse('2026-11-03T10:00:05.000Z'));
  });

  it('keeps the first line of a reply written once per content block, and never merges lines without both ids', () => {
    const file = transcript([
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:01.000Z',
        model: HAIKU,
        messageId: 'm',
        requestId: 'r',
        input: 10,
        output: 1,
      }),
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:02.000Z',
        model: HAIKU,
        messageId: 'm',
        requestId: 'r',
        input: 10,
        output: 99,
      }),
      // Same message, another request (a retry): a different record, as ccusage counts it.
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:03.000Z',
        model: HAIKU,
        messageId: 'm',
        requestId: 'r2',
        input: 10,
        output: 5,
      }),
      assistantLine({ ...base, at: '2026-11-03T10:00:04.000Z', model: HAIKU, messageId: 'n', input: 7 }),
      assistantLine({ ...base, at: '2026-11-03T10:00:04.000Z', model: HAIKU, messageId: 'n', input: 7 }),
    ]);
    const { records } = readClaudeCodeFile(file);
    expect(records.map((r) => [r.key, r.tokens.output, r.tokens.input])).toEqual([
      ['m:r', 1, 10],
      ['m:r2', 5, 10],
      [null, 0, 7],
      [null, 0, 7],
    ]);
  });

  it("uses a line's costUSD when present (ccusage's auto mode) and prices without a split as 5 min writes", () => {
    const file = transcript([
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:00.000Z',
        model: SONNET,
        messageId: 'a',
        requestId: 'r',
        input: 1_000_000,
        costUSD: 0.123_456_7,
      }),
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:01.000Z',
        model: HAIKU,
        messageId: 'b',
        requestId: 'r',
        cacheWrite5m: 1000,
        noSplit: true,
      }),
    ]);
    const [a, b] = readClaudeCodeFile(file).records;
    expect(a).toMatchObject({ costMicros: 123_457, priceVersion: CLAUDE_CODE_COST_VERSION });
    expect(b!.tokens).toMatchObject({ cacheWrite5m: 1000, cacheWrite1h: 0 });
    expect(b!.costMicros).toBe(1250); // Haiku 4.5 5 min write: 1.25 $/MTok
  });

  it('leaves an unknown model and fast mode unpriced, never $0, and leaves out <synthetic>', () => {
    const file = transcript([
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:00.000Z',
        model: 'claude-future-9',
        messageId: 'a',
        requestId: 'r',
        input: 500,
      }),
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:01.000Z',
        model: 'claude-opus-4-6',
        messageId: 'b',
        requestId: 'r',
        input: 500,
        speed: 'fast',
      }),
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:02.000Z',
        model: '<synthetic>',
        messageId: 'c',
        requestId: 'r',
      }),
    ]);
    const { records } = readClaudeCodeFile(file);
    expect(records.map((r) => [r.model, r.costMicros, r.priceVersion])).toEqual([
      ['claude-future-9', null, null],
      ['claude-opus-4-6 (fast)', null, null],
    ]);
  });

  it('counts turns from real prompts only and prefers the summary line as title', () => {
    const file = transcript([
      userLine({ ...base, at: '2026-11-03T10:00:00.000Z', text: '<command-name>/clear</command-name>' }),
      userLine({ ...base, at: '2026-11-03T10:00:00.500Z', text: 'Caveat: meta', isMeta: true }),
      userLine({ ...base, at: '2026-11-03T10:00:01.000Z', text: 'first' }),
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:02.000Z',
        model: HAIKU,
        messageId: 'a',
        requestId: 'r',
      }),
      toolResultLine({ ...base, at: '2026-11-03T10:00:03.000Z' }),
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:04.000Z',
        model: HAIKU,
        messageId: 'b',
        requestId: 'r',
      }),
      userLine({ ...base, at: '2026-11-03T10:00:05.000Z', text: 'second' }),
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:06.000Z',
        model: HAIKU,
        messageId: 'c',
        requestId: 'r',
        isSidechain: true,
      }),
      summaryLine('Checkout bug fixed'),
    ]);
    const { info, records } = readClaudeCodeFile(file);
    expect(info.title).toBe('Checkout bug fixed');
    expect(records.map((r) => [r.turn, r.agentId])).toEqual([
      [1, null],
      [1, null],
      [2, 'sidechain'],
    ]);
  });

  it("names a sub-agent's own file and files it under the parent session", () => {
    const dir = path.join(tempDir(), 'projects', '-p', 'parent-1', 'subagents');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'agent-a1b2.jsonl');
    writeFileSync(
      file,
      assistantLine({
        sessionId: 'parent-1',
        cwd: '/p',
        at: '2026-11-03T10:00:00.000Z',
        model: HAIKU,
        messageId: 'a',
        requestId: 'r',
        isSidechain: true,
      }) + '\n',
    );
    const { info, records } = readClaudeCodeFile(file);
    expect(info.sessionId).toBe('parent-1');
    expect(info.agent).toEqual({ agentId: 'a1b2', name: 'agent-a1b2', agentType: 'sub-agent' });
    expect(records[0]!.agentId).toBe('a1b2');
  });

  it('skips corrupt lines, wrong types and odd timestamps with a problem each, and reads on', () => {
    const good = assistantLine({
      ...base,
      at: '2026-11-03T10:00:00.000Z',
      model: HAIKU,
      messageId: 'a',
      requestId: 'r',
      input: 1,
    });
    const file = transcript([
      '{"type":"assistant","message":{"usage":', // torn
      '[1,2]',
      JSON.stringify({
        timestamp: '2026-11-03T10:00:00.000Z',
        message: { model: HAIKU, usage: { input_tokens: '12', output_tokens: 1 } },
      }),
      JSON.stringify({
        timestamp: '2026-11-03T10:00:00.000Z',
        message: { model: HAIKU, usage: { input_tokens: -3, output_tokens: 1 } },
      }),
      JSON.stringify({
        timestamp: '3 Nov 2026',
        message: { model: HAIKU, usage: { input_tokens: 1, output_tokens: 1 } },
      }),
      good,
    ]);
    const { records, problems } = readClaudeCodeFile(file);
    expect(records).toHaveLength(1);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/line 1 skipped: not valid JSON/);
    expect(problems[1]).toMatch(/line 2 skipped: not a JSON object/);
    expect(problems[2]).toMatch(
      /line 3 skipped: its usage is not in the expected form \(message\.usage\.input_tokens\)/,
    );
    expect(problems[4]).toMatch(/line 5 .*timestamp/);
  });

  it('skips figures beyond any real response and dates that do not exist, with a problem each', () => {
    const at = '2026-11-03T10:00:00.000Z';
    const line = (o: Partial<Parameters<typeof assistantLine>[0]>, i: number) =>
      assistantLine({ ...base, at, model: HAIKU, messageId: `m${i}`, requestId: `r${i}`, input: 1, ...o });
    const file = transcript([
      line({ costUSD: 1e300 }, 1),
      line({ costUSD: 10_000.01 }, 2),
      line({ input: Number.MAX_SAFE_INTEGER }, 3),
      line({ output: 100_000_001 }, 4),
      line({ cacheRead: 2 ** 52 }, 5),
      line({ webSearches: 1e9 }, 6),
      line({ at: '2026-13-01T00:00:00.000Z' }, 7),
      line({ at: '2026-02-30T25:61:00.000Z' }, 8),
      line({ costUSD: 12.5 }, 9),
      line({ input: 100_000_000 }, 10),
    ]);
    const { records, problems } = readClaudeCodeFile(file);
    expect(records.map((r) => r.key)).toEqual(['m9:r9', 'm10:r10']);
    expect(records[0]?.costMicros).toBe(12_500_000);
    expect(problems).toHaveLength(8);
    for (const [i, p] of problems.slice(0, 6).entries())
      expect(p).toMatch(new RegExp(`line ${i + 1} skipped: its usage is not in the expected form`));
    expect(problems[6]).toMatch(/line 7 skipped: its timestamp is not a real date/);
    expect(problems[7]).toMatch(/line 8 skipped: its timestamp is not a real date/);
    for (const r of records) expect(Number.isSafeInteger(r.at)).toBe(true);
  });

  it('skips a line longer than the cap without holding it, and reads the lines after it', () => {
    const huge = JSON.stringify({ type: 'user', message: { content: 'x'.repeat(MAX_LINE_BYTES + 10) } });
    const file = transcript([
      huge,
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:00.000Z',
        model: HAIKU,
        messageId: 'a',
        requestId: 'r',
        input: 1,
      }),
    ]);
    const { records, problems } = readClaudeCodeFile(file);
    expect(records).toHaveLength(1);
    expect(problems).toEqual([expect.stringMatching(/line 1 skipped: \d+ bytes is longer/)]);
  });

  it('does not follow a symbolic link, and reports a missing file', () => {
    const target = transcript([
      assistantLine({
        ...base,
        at: '2026-11-03T10:00:00.000Z',
        model: HAIKU,
        messageId: 'a',
        requestId: 'r',
      }),
    ]);
    const link = path.join(path.dirname(target), 'link.jsonl');
    symlinkSync(target, link);
    expect(readClaudeCodeFile(link)).toMatchObject({
      records: [],
      problems: [expect.stringMatching(/symbolic link/)],
    });
    expect(readClaudeCodeFile(path.join(path.dirname(target), 'gone.jsonl')).problems).toEqual([
      expect.stringMatching(/could not be read/),
    ]);
  });

  it('lists at most 20 problems per file and counts the rest', () => {
    const file = transcript(Array.from({ length: 25 }, () => 'not json'));
    const { problems } = readClaudeCodeFile(file);
    expect(problems).toHaveLength(21);
    expect(problems[20]).toMatch(/5 more problems/);
  });
});

describe('mergeClaudeCodeFiles', () => {
  it('reads files oldest first and keeps the first of a reply copied into a resumed session', () => {
    const older = transcript(
      [
        assistantLine({
          ...base,
          at: '2026-11-03T10:00:00.000Z',
          model: HAIKU,
          messageId: 'a',
          requestId: 'r',
          output: 1,
        }),
      ],
      'old.jsonl',
    );
    const newer = transcript(
      [
        assistantLine({
          ...base,
          sessionId: 'sess-2',
          at: '2026-11-03T09:00:00.000Z',
          model: HAIKU,
          messageId: 'b',
          requestId: 'r',
          output: 3,
        }),
        assistantLine({
          ...base,
          sessionId: 'sess-2',
          at: '2026-11-03T10:00:00.000Z',
          model: HAIKU,
          messageId: 'a',
          requestId: 'r',
          output: 2,
        }),
      ],
      'new.jsonl',
    );
    const merged = mergeClaudeCodeFiles([readClaudeCodeFile(older), readClaudeCodeFile(newer)]);
    // `new.jsonl` starts earlier (09:00), so its copy of `a` is the one kept, as in ccusage.
    expect(merged.map((r) => [r.key, r.tokens.output, r.sessionId])).toEqual([
      ['b:r', 3, 'sess-2'],
      ['a:r', 2, 'sess-2'],
    ]);
  });
});
