import { describe, expect, it } from 'vitest';
import { SessionBudget } from '../cost/budget/session-budget';
import { text, toolUse } from '../../test-support/engine';
import { testRuntime } from '../../test-support/runtime';
import { page, startWebSite } from '../../test-support/web-site';

/*
 * WebFetch's reader and WebSearch spend from the session's budget like its turns: counted in it, and
 * past a reached limit they make no model request. Sonnet 4.5 at $3 per million input tokens: the
 * turn's 1,000 tokens cost 3,000 micro-dollars.
 */

const SMALL = 'claude-haiku-4-5';

async function setup(limitMicros: number, siteUrl: string) {
  const budget = new SessionBudget({
    sessionId: 's',
    projectPath: '/p',
    limits: () => ({ kind: 'ok', limits: { session: limitMicros } }),
    ask: null,
  });
  const t = await testRuntime(
    {
      steps: [
        {
          when: { lastUserText: 'fetch' },
          reply: {
            content: [toolUse('WebFetch', { url: `${siteUrl}/docs`, prompt: 'What?' }, 'f1')],
            stop_reason: 'tool_use',
            usage: { input_tokens: 1000, output_tokens: 0 },
          },
        },
        {
          when: { model: SMALL },
          reply: { content: [text('An answer.')], usage: { input_tokens: 400, output_tokens: 8 } },
        },
        { times: true, reply: { content: [text('Done.')], usage: { input_tokens: 1, output_tokens: 0 } } },
      ],
    },
    { overrides: { budget } },
  );
  return { t, budget };
}

describe('web tools and the budget', () => {
  it("the reader's request is counted in the session's spend", async () => {
    const site = await startWebSite({ '/docs': page('<p>x</p>') });
    const { t, budget } = await setup(1_000_000, site.url);
    expect((await t.run('fetch')).result.terminal.reason).toBe('completed');
    // Turn 3,000 + reader 400 + 8 × 5 + last turn 3.
    expect(budget.runMicros).toBe(3_000 + 440 + 3);
  });

  it('past a reached limit the reader is not called, and the model is told why', async () => {
    const site = await startWebSite({ '/docs': page('<p>x</p>') });
    const { t, budget } = await setup(2_000, site.url);
    const { events, result } = await t.run('fetch');
    const refused = events.flatMap((e) => (e.type === 'tool_result' ? [e.block] : []))[0];
    expect(refused?.is_error).toBe(true);
    expect(refused?.content).toBe(
      'WebFetch failed: the session has reached its spending limit, so no model request is made for this tool',
    );
    expect(t.api.requests.some((r) => r.body.model === SMALL)).toBe(false);
    expect(budget.runMicros).toBe(3_000);
    expect(result.terminal.reason).toBe('budget');
  });
});
