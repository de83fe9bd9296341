import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text, toolUse } from '../../test-support/engine';
import { testRuntime } from '../../test-support/runtime';
import { tempDir } from '../../test-support/temp';
import { memoryDirFor } from '../memory/dir/paths';
import { writeDreamState } from '../memory/dream/dream-state';
import { MemoryRecall } from '../memory/recall/memory-recall';
import { readTranscript, type TranscriptLine } from '../session/transcript-file';
import { PRICE_TABLE } from './pricing';
import { onUsageLine } from './usage-feed';
import type { UsageLine } from './usage-line';

/*
 * Every API response's final usage becomes one `usage` line in the transcript of the agent whose
 * request it was, priced by hand here from the table: Sonnet 4.5 is $3 in, $15 out, $3.75 / $6 for
 * 5 min / 1 h cache writes, $0.30 cache reads; Haiku 4.5 is $1 / $5 / $1.25 / $2 / $0.10.
 * Dollars per million tokens are micro-dollars per token.
 */

type Step = Parameters<typeof testEngine>[0]['steps'][number];

const SESSION_MODEL = 'claude-sonnet-4-5';
const SMALL = 'claude-haiku-4-5';
const PTL = {
  error: {
    status: 400,
    type: 'invalid_request_error',
    message: 'prompt is too long: 250000 tokens > 200000 maximum',
  },
};

const usageLines = (lines: readonly TranscriptLine[]) =>
  lines.filter((l): l is UsageLine => l.type === 'usage');

function memoryDir(): string {
  const dir = tempDir('carapace-memory-');
  writeFileSync(
    path.join(dir, 'note.md'),
    '---\nname: note\ndescription: A note the selector may pick\ntype: reference\n---\n\nBODY\n',
  );
  writeFileSync(path.join(dir, 'MEMORY.md'), '- [note](note.md)\n');
  return dir;
}

describe('usage lines: one per API response, in the transcript of the agent that asked', () => {
  it('writes turn, purpose and price for the turn, the memory selector and a compaction; a repeated id once', async () => {
    const main = (reply: Step['reply']): Step => ({ when: { model: SESSION_MODEL }, reply });
    const recall = new MemoryRecall({ memoryDir: memoryDir(), enabled: () => true });
    const seen: { line: UsageLine; sessionId: string; agentId: string }[] = [];
    const stop = onUsageLine((line, from) => seen.push({ line, ...from }));
    const t = await testEngine(
      {
        steps: [
          {
            when: { model: SMALL },
            times: true,
            reply: {
              content: [text('{"selected_memories": []}')],
              usage: { input_tokens: 400, output_tokens: 8 },
            },
          },
          // Turn 1: 5 min and 1 h cache writes and cache reads.
          main({
            id: 'msg_1',
            content: [text('One.')],
            usage: {
              input_tokens: 1000,
              output_tokens: 50,
              cache_creation_input_tokens: 3000,
              cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
              cache_read_input_tokens: 5000,
            },
          }),
          // Turn 2: the prompt is too long; a compaction, then the answer.
          main(PTL),
          main({ id: 'msg_c', content: [text('Summary.')], usage: { input_tokens: 700, output_tokens: 90 } }),
          main({ id: 'msg_2', content: [text('Two.')], usage: { input_tokens: 20, output_tokens: 3 } }),
          // Turn 3: a response reported twice under one message id is written once.
          main({
            id: 'msg_3',
            content: [toolUse('Glob', { pattern: '*.none' })],
            stop_reason: 'tool_use',
            usage: { input_tokens: 10, output_tokens: 10 },
          }),
          main({ id: 'msg_3', content: [text('Three.')], usage: { input_tokens: 10, output_tokens: 10 } }),
        ],
      },
      { recall, model: SESSION_MODEL },
    );
    try {
      for (const prompt of ['first', 'second', 'third'])
        expect((await t.run(prompt)).result.terminal.reason).toBe('completed');
    } finally {
      stop();
    }

    const lines = usageLines(t.lines().lines);
    // The selector's ids are the server's own: only their presence is checked.
    const summary = lines.map((l) => [
      l.turn,
      l.purpose,
      l.model,
      l.purpose === 'memory-selector' ? typeof l.apiId : l.apiId,
    ]);
    expect(summary).toEqual([
      [1, 'memory-selector', SMALL, 'string'],
      [1, 'turn', SESSION_MODEL, 'msg_1'],
      [2, 'memory-selector', SMALL, 'string'],
      [2, 'compact', SESSION_MODEL, 'msg_c'],
      [2, 'turn', SESSION_MODEL, 'msg_2'],
      [3, 'memory-selector', SMALL, 'string'],
      [3, 'turn', SESSION_MODEL, 'msg_3'],
    ]);
    expect(lines.map((l) => l.costMicros)).toEqual([
      400 * 1 + 8 * 5,
      1000 * 3 + 50 * 15 + 1000 * 3.75 + 2000 * 6 + 5000 * 0.3,
      400 + 40,
      700 * 3 + 90 * 15,
      20 * 3 + 3 * 15,
      440,
      10 * 3 + 10 * 15,
    ]);
    expect(lines[1]?.tokens).toEqual({
      input: 1000,
      output: 50,
      cacheWrite5m: 1000,
      cacheWrite1h: 2000,
      cacheRead: 5000,
      webSearches: 0,
    });
    expect(new Set(lines.map((l) => l.priceVersion))).toEqual(new Set([PRICE_TABLE.version]));
    // The session's total is the sum of its lines: nothing counted that was not written, or twice.
    expect(t.engine.cost.snapshot().totalCostMicros).toBe(lines.reduce((s, l) => s + (l.costMicros ?? 0), 0));
    // Listeners (the OpenTelemetry exporter) see the same lines, once each, with the session.
    expect(seen.map((s) => s.line)).toEqual(lines);
    expect(new Set(seen.map((s) => `${s.sessionId}/${s.agentId}`))).toEqual(
      new Set([`${t.options.sessionId}/${t.options.sessionId}`]),
    );

    // Resumed, the next turn is the fourth: turns count on from the transcript's turn lines.
    const again = await testEngine(
      {
        steps: [
          { reply: { id: 'msg_4', content: [text('Four.')], usage: { input_tokens: 1, output_tokens: 1 } } },
        ],
      },
      { model: SESSION_MODEL, sessionId: t.options.sessionId },
    );
    again.engine.resume(t.lines().lines);
    await again.run('fourth');
    expect(usageLines(again.lines().lines).map((l) => [l.turn, l.apiId, l.costMicros])).toEqual([
      [4, 'msg_4', 18],
    ]);
  });

  it('an unknown model is written unpriced (null, never 0); the demo model costs 0 with no table version', async () => {
    const t = await testEngine(
      {
        steps: [
          {
            reply: {
              model: 'claude-unknown-9',
              id: 'msg_u',
              content: [text('?')],
              usage: { input_tokens: 5, output_tokens: 5 },
            },
          },
        ],
      },
      { model: 'claude-unknown-9' },
    );
    await t.run('hello');
    expect(usageLines(t.lines().lines)).toMatchObject([
      { apiId: 'msg_u', model: 'claude-unknown-9', costMicros: null, priceVersion: null, turn: 1 },
    ]);
  });

  it("writes a sub-agent's responses in its own transcript, not again in its parent's", async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'start' },
          reply: {
            id: 'msg_p1',
            content: [
              toolUse(
                'Agent',
                {
                  description: 'sub',
                  prompt: 'SUBTASK look',
                  subagent_type: 'general-purpose',
                  model: 'haiku',
                },
                'tu1',
              ),
            ],
            stop_reason: 'tool_use',
            usage: { input_tokens: 100, output_tokens: 20 },
          },
        },
        {
          when: { lastUserText: 'SUBTASK' },
          reply: {
            id: 'msg_s1',
            content: [text('Sub done')],
            usage: { input_tokens: 300, output_tokens: 30, cache_read_input_tokens: 1000 },
          },
        },
        {
          when: { lastUserText: 'Sub done' },
          reply: {
            id: 'msg_p2',
            content: [text('All done')],
            usage: { input_tokens: 200, output_tokens: 10 },
          },
        },
      ],
    });
    const { events, result } = await t.run('start');
    expect(result.terminal.reason).toBe('completed');
    const started = events.find((e) => e.type === 'agent_started');
    if (started?.type !== 'agent_started') throw new Error('no agent_started');

    const parent = usageLines(readTranscript(t.transcriptFile).lines);
    expect(parent.map((l) => [l.apiId, l.turn, l.costMicros])).toEqual([
      ['msg_p1', 1, 100 * 3 + 20 * 15],
      ['msg_p2', 1, 200 * 3 + 10 * 15],
    ]);
    const child = usageLines(readTranscript(started.info.transcriptFile).lines);
    expect(child.map((l) => [l.apiId, l.model, l.turn, l.purpose, l.costMicros])).toEqual([
      ['msg_s1', SMALL, 1, 'turn', 300 * 1 + 30 * 5 + 1000 * 0.1],
    ]);
    // The parent's total still includes its sub-agent's cost (the status bar's figure).
    expect(t.runtime.engine.cost.snapshot().totalCostMicros).toBe(600 + 750 + 550);
  });

  it('writes a consolidation (autoDream) that ends after its turn with the purpose and the turn it was made for', async () => {
    const t = await testRuntime({
      steps: [
        {
          when: { model: SMALL },
          reply: {
            content: [text('{"selected_memories": []}')],
            usage: { input_tokens: 50, output_tokens: 5 },
          },
        },
        {
          when: { systemText: 'You consolidate' },
          reply: {
            id: 'msg_dream',
            stop_reason: 'tool_use',
            content: [
              toolUse('save_consolidated_memories', {
                files: [{ name: 'MEMORY.md', content: '- none\n' }],
                remove: [],
              }),
            ],
            usage: { input_tokens: 900, output_tokens: 100 },
          },
        },
        {
          when: { model: SESSION_MODEL, lastUserText: 'go' },
          reply: { id: 'msg_go', content: [text('Gone.')], usage: { input_tokens: 1, output_tokens: 1 } },
        },
      ],
    });
    const dir = memoryDirFor({ carapaceHome: t.home, projectRoot: t.project });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'a.md'), '---\nname: a\ndescription: a note\ntype: user\n---\nA.\n');
    // The fifth session since the last consolidation: this one starts a dream.
    await writeDreamState(dir, { lastConsolidatedAt: null, sessionsSince: 4 });
    await t.run('go');
    for (let i = 0; i < 200 && t.runtime.engine.tasks.list()[0]?.status !== 'completed'; i++)
      await new Promise((r) => setTimeout(r, 25));
    const lines = usageLines(readTranscript(t.transcriptFile).lines);
    expect(lines.map((l) => [l.purpose, l.turn, l.costMicros]).sort()).toEqual(
      [
        ['consolidation', 1, 900 * 3 + 100 * 15],
        ['memory-selector', 1, 50 * 1 + 5 * 5],
        ['turn', 1, 1 * 3 + 1 * 15],
      ].sort(),
    );
  });
});
