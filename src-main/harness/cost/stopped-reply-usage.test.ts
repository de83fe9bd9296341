import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { testEngine, text } from '../../test-support/engine';
import { tempDir } from '../../test-support/temp';
import { SessionBudget } from './budget/session-budget';
import { readCarapaceFile } from './ledger/read-carapace';

// Sonnet 4.5: $3 per million input tokens, $15 per million output tokens. The stream is stopped
// before its final message_delta, so the usage known is message_start's: 10,000 input and 1 output.
const STOPPED_MICROS = 10_000 * 3 + 1 * 15;

it('a reply stopped mid-stream is billed once: a usage line, the session total, the budget and the ledger agree', async () => {
  const budget = new SessionBudget({
    sessionId: 's',
    projectPath: '/p',
    limits: () => ({ kind: 'ok', limits: {} }),
  });
  const t = await testEngine(
    {
      steps: [
        {
          reply: {
            id: 'msg_stopped',
            content: [text('A long answer that is being streamed out slowly to the person')],
            usage: { input_tokens: 10_000, output_tokens: 500 },
            chunkChars: 4,
            hold: { afterEvents: 4, gate: 'g' },
          },
        },
      ],
    },
    { model: 'claude-sonnet-4-5', budget },
  );
  const stop = new AbortController();
  const r = await t.run('go', { signal: stop.signal }, (e) => {
    if (e.type === 'text_delta') stop.abort();
  });
  t.api.release('g');
  expect(r.result.terminal.reason).toBe('aborted');

  const lines = t.lines().lines;
  const usage = lines.filter((l) => l.type === 'usage');
  expect(usage).toHaveLength(1);
  expect(usage[0]).toMatchObject({ apiId: 'msg_stopped', costMicros: STOPPED_MICROS, purpose: 'turn' });
  expect(t.engine.cost.snapshot().totalCostMicros).toBe(STOPPED_MICROS);
  expect(budget.runMicros).toBe(STOPPED_MICROS);

  // The interrupted assistant item carries the same id: the ledger counts the response once.
  const home = tempDir('stopped-ledger-');
  const file = path.join(home, 'session.jsonl');
  const body = lines.filter((l) => l.type !== 'session').map((l) => JSON.stringify(l));
  writeFileSync(
    file,
    [JSON.stringify({ type: 'session', sessionId: 's', projectPath: '/p' }), ...body].join('\n'),
  );
  expect(readCarapaceFile(file).records.map((x) => [x.key, x.costMicros])).toEqual([
    ['msg_stopped', STOPPED_MICROS],
  ]);
});
