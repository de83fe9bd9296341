import { describe, expect, it } from 'vitest';
import { testRuntime } from '../../../test-support/runtime';
import { text, toolUse } from '../../../test-support/engine';
import type { BudgetLine } from '../usage-line';
import { SessionBudget } from './session-budget';

/*
 * One budget for the whole session: a sub-agent's spend counts toward it, and a sub-agent's own
 * requests wait at it like the main agent's. Sonnet 4.5 input is $3 per million tokens.
 */
describe('a session budget shared by its agents', () => {
  it("stops a sub-agent at the session's limit, and then the main agent before its next request", async () => {
    const lines: BudgetLine[] = [];
    const budget = new SessionBudget({
      sessionId: 's',
      projectPath: '/p',
      limits: () => ({ kind: 'ok', limits: { session: 300_000 } }),
      ask: null,
      onEvent: (l) => lines.push(l),
    });
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'start' },
            reply: {
              content: [
                toolUse(
                  'Agent',
                  { description: 'look', prompt: 'SUBTASK look', subagent_type: 'general-purpose' },
                  'a1',
                ),
              ],
              stop_reason: 'tool_use',
              usage: { input_tokens: 10_000, output_tokens: 0 }, // 30,000
            },
          },
          {
            times: true,
            when: { lastUserText: 'SUBTASK' },
            reply: {
              content: [toolUse('Glob', { pattern: '*.none' })],
              stop_reason: 'tool_use',
              usage: { input_tokens: 100_000, output_tokens: 0 }, // 300,000: 330,000 in all
            },
          },
          { times: true, reply: { content: [text('never sent')] } },
        ],
      },
      { overrides: { budget } },
    );
    const { result, events } = await t.run('start');
    // The main agent's request and the sub-agent's first; the sub-agent's second is stopped.
    expect(t.api.requests).toHaveLength(2);
    expect(budget.runMicros).toBe(330_000);
    const ended = events.flatMap((e) => (e.type === 'agent_ended' ? [e.outcome] : []));
    expect(ended).toHaveLength(1);
    expect(JSON.stringify(ended[0])).toContain('budget');
    expect(result.terminal.reason).toBe('budget');
    expect(lines.map((l) => l.event)).toEqual(['warning', 'stopped']);
  });
});
