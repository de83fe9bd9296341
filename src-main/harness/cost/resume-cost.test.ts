import { expect, it } from 'vitest';
import type { TranscriptLine } from '../session/transcript-file';
import { readTranscript } from '../session/transcript-file';
import { testEngine, text, toolUse } from '../../test-support/engine';
import { testRuntime } from '../../test-support/runtime';

const usageSum = (lines: readonly TranscriptLine[]) =>
  lines.reduce((s, l) => s + (l.type === 'usage' ? (l.costMicros ?? 0) : 0), 0);

it('a session resumed after a crash mid-turn totals its usage lines, not only the last cost snapshot', async () => {
  const t = await testEngine(
    {
      steps: [
        { reply: { id: 'm1', content: [text('one')], usage: { input_tokens: 1000, output_tokens: 10 } } },
        {
          reply: {
            id: 'm2',
            content: [toolUse('Glob', { pattern: '*.x' })],
            stop_reason: 'tool_use',
            usage: { input_tokens: 2000, output_tokens: 20, cache_creation_input_tokens: 4000 },
          },
        },
        { reply: { id: 'm3', content: [text('three')], usage: { input_tokens: 3000, output_tokens: 30 } } },
      ],
    },
    { model: 'claude-sonnet-4-5' },
  );
  await t.run('first');
  await t.run('second');
  const lines = t.lines().lines;
  // Sonnet 4.5 by hand: m1 3,000 + 150; m2 6,000 + 300 + 4,000 × 3.75 = 15,000; m3 9,000 + 450.
  const expected = 3_150 + 21_300 + 9_450;
  expect(usageSum(lines)).toBe(expected);
  expect(t.engine.cost.snapshot().totalCostMicros).toBe(expected);

  // The process died before turn 2 ended: its usage lines are there, its cost snapshot is not.
  const lastCost = lines.map((l) => l.type).lastIndexOf('cost');
  const crashed = lines.filter((_, i) => i !== lastCost);
  const again = await testEngine(
    {
      steps: [
        { reply: { id: 'm4', content: [text('four')], usage: { input_tokens: 100, output_tokens: 1 } } },
      ],
    },
    { model: 'claude-sonnet-4-5', sessionId: t.options.sessionId },
  );
  again.engine.resume(crashed);
  expect(again.engine.cost.snapshot().totalCostMicros).toBe(expected);
  expect(again.engine.cost.snapshot().modelUsage['claude-sonnet-4-5']).toMatchObject({
    inputTokens: 6000,
    outputTokens: 60,
    cacheCreationInputTokens: 4000,
    costMicros: expected,
  });

  // Going on from there: the next reply adds its own price, and the new cost line holds the lot.
  await again.run('third');
  expect(again.engine.cost.snapshot().totalCostMicros).toBe(expected + 300 + 15);
  const saved = again
    .lines()
    .lines.filter((l) => l.type === 'cost')
    .at(-1);
  expect(saved?.type === 'cost' ? saved.snapshot.totalCostMicros : null).toBe(expected + 300 + 15);
});

it('a session that ended cleanly resumes at its snapshot, the earlier lines not added twice', async () => {
  const t = await testEngine(
    {
      steps: [
        { reply: { id: 'm1', content: [text('one')], usage: { input_tokens: 1000, output_tokens: 10 } } },
      ],
    },
    { model: 'claude-sonnet-4-5' },
  );
  await t.run('first');
  const again = await testEngine(
    { steps: [] },
    { model: 'claude-sonnet-4-5', sessionId: t.options.sessionId },
  );
  again.engine.resume(t.lines().lines);
  expect(again.engine.cost.snapshot().totalCostMicros).toBe(3_150);
});

it("a crash mid-turn after a sub-agent ran: the resumed total has the sub-agent's usage from its own transcript", async () => {
  const t = await testRuntime({
    steps: [
      {
        when: { lastUserText: 'first' },
        reply: { id: 'msg_p0', content: [text('hi')], usage: { input_tokens: 1000, output_tokens: 100 } },
      },
      {
        when: { lastUserText: 'second' },
        reply: {
          id: 'msg_p1',
          content: [
            toolUse('Agent', {
              description: 'sub',
              prompt: 'SUBTASK look',
              subagent_type: 'general-purpose',
              model: 'haiku',
            }),
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
          usage: { input_tokens: 300, output_tokens: 30, server_tool_use: { web_search_requests: 2 } },
        },
      },
      {
        when: { lastUserText: 'Sub done' },
        reply: { id: 'msg_p2', content: [text('All done')], usage: { input_tokens: 200, output_tokens: 10 } },
      },
    ],
  });
  await t.run('first');
  await t.run('second');
  // Sonnet 4.5: p0 3,000 + 1,500; p1 300 + 300; p2 600 + 150. Haiku 4.5: 300 + 150 + two searches 20,000.
  const total = 4_500 + 600 + 750 + 20_450;
  expect(t.runtime.engine.cost.snapshot().totalCostMicros).toBe(total);

  const lines = readTranscript(t.transcriptFile).lines;
  const lastCost = lines.map((l) => l.type).lastIndexOf('cost');
  const crashed = lines.filter((_, i) => i !== lastCost);
  const again = await testEngine(
    { steps: [] },
    { model: 'claude-sonnet-4-5', sessionId: t.runtime.engine.agentId, sessionDir: t.runtime.sessionDir },
  );
  again.engine.resume(crashed);
  expect(again.engine.cost.snapshot().totalCostMicros).toBe(total);
  // A clean end: the snapshot already holds the sub-agent; it is not added twice.
  const clean = await testEngine(
    { steps: [] },
    { model: 'claude-sonnet-4-5', sessionId: t.runtime.engine.agentId, sessionDir: t.runtime.sessionDir },
  );
  clean.engine.resume(lines);
  expect(clean.engine.cost.snapshot().totalCostMicros).toBe(total);
});
