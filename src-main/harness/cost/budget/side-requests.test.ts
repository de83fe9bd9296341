import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text, toolUse } from '../../../test-support/engine';
import { testRuntime } from '../../../test-support/runtime';
import { tempDir } from '../../../test-support/temp';
import { memoryDirFor } from '../../memory/dir/paths';
import { writeDreamState } from '../../memory/dream/dream-state';
import { MemoryRecall } from '../../memory/recall/memory-recall';
import { SessionBudget, type BudgetAnswer, type BudgetAsk } from './session-budget';

/*
 * Model calls besides the turn's own spend from the session's budget too. By hand from the price
 * table: the selector (Haiku 4.5, $1 in, $5 out) costs 400 + 8 × 5 = 440 micro-dollars a call; a
 * turn (Sonnet 4.5, $3 in) 1,000 × 3 = 3,000.
 */
const SESSION_MODEL = 'claude-sonnet-4-5';
const SMALL = 'claude-haiku-4-5';

function memoryDir(): string {
  const dir = tempDir('carapace-memory-');
  writeFileSync(
    path.join(dir, 'note.md'),
    '---\nname: note\ndescription: A note the selector may pick\ntype: reference\n---\n\nBODY\n',
  );
  writeFileSync(path.join(dir, 'MEMORY.md'), '- [note](note.md)\n');
  return dir;
}

async function setup(sessionLimitMicros: number) {
  const asked: BudgetAsk[] = [];
  const answers: ((a: BudgetAnswer) => void)[] = [];
  const budget = new SessionBudget({
    sessionId: 's',
    projectPath: '/p',
    limits: () => ({ kind: 'ok', limits: { session: sessionLimitMicros } }),
    ask: (a) => {
      asked.push(a);
      return new Promise((resolve) => answers.push(resolve));
    },
  });
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
        {
          when: { model: SESSION_MODEL },
          times: true,
          reply: { content: [text('Done.')], usage: { input_tokens: 1000, output_tokens: 0 } },
        },
      ],
    },
    {
      recall: new MemoryRecall({ memoryDir: memoryDir(), enabled: () => true }),
      model: SESSION_MODEL,
      budget,
    },
  );
  const selectorCalls = () => t.api.requests.filter((r) => r.body.model === SMALL).length;
  return { t, budget, asked, answers, selectorCalls };
}

describe('side requests and the budget', () => {
  it("the memory selector's calls are counted in the session's spend", async () => {
    const { t, budget, selectorCalls } = await setup(1_000_000);
    expect((await t.run('first')).result.terminal.reason).toBe('completed');
    expect((await t.run('second')).result.terminal.reason).toBe('completed');
    expect(selectorCalls()).toBe(2);
    expect(budget.runMicros).toBe(2 * (440 + 3_000));
  });

  it('at a reached limit the selector is skipped, and the turn goes straight to the pause', async () => {
    // 440 + 3,000 = 3,440 after the first turn: the 3,000 limit is reached.
    const { t, budget, asked, answers, selectorCalls } = await setup(3_000);
    expect((await t.run('first')).result.terminal.reason).toBe('completed');
    expect(budget.runMicros).toBe(3_440);
    const second = t.run('second');
    // The turn's own request is what waits for the person; the selector was never called.
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toMatchObject({ kind: 'session', spentMicros: 3_440, limitMicros: 3_000 });
    expect(selectorCalls()).toBe(1);
    for (const answer of answers) answer({ decision: 'stop' });
    expect((await second).result.terminal.reason).toBe('budget');
    expect(selectorCalls()).toBe(1);
    expect(await budget.sideRequestsAllowed()).toBe(false);
  });

  it("a background consolidation (autoDream) is counted in the session's spend", async () => {
    const budget = new SessionBudget({
      sessionId: 's',
      projectPath: '/p',
      limits: () => ({ kind: 'ok', limits: { session: 1_000_000 } }),
      ask: null,
    });
    const t = await testRuntime(
      {
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
            reply: { content: [text('Gone.')], usage: { input_tokens: 1, output_tokens: 1 } },
          },
        ],
      },
      { overrides: { budget } },
    );
    const dir = memoryDirFor({ carapaceHome: t.home, projectRoot: t.project });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'a.md'), '---\nname: a\ndescription: a note\ntype: user\n---\nA.\n');
    // The fifth session since the last consolidation: this one starts a dream.
    await writeDreamState(dir, { lastConsolidatedAt: null, sessionsSince: 4 });
    expect((await t.run('go')).result.terminal.reason).toBe('completed');
    // Selector 50 + 25, turn 3 + 15, consolidation 900 × 3 + 100 × 15.
    await expect.poll(() => budget.runMicros, { timeout: 10_000 }).toBe(75 + 18 + 4_200);
  });
});
