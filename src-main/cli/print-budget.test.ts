import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { toolUse } from '../test-support/engine';
import { capturePrint, lastJsonLine } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';
import { parsePrintArgs } from './print-args';

const MODEL = 'claude-sonnet-4-5';
// By hand from the price table: Sonnet 4.5 is $3 / M input, $15 / M output.
// 10,000 input + 1,000 output = 30,000 + 15,000 = 45,000 micro-dollars per response.
const PER_RESPONSE_MICROS = 10_000 * 3 + 1_000 * 15;

async function setup() {
  // Every reply asks for another tool call, so only a limit ends the run.
  const api = await startScriptedApi({
    scenario: {
      steps: [
        {
          times: true,
          when: { model: MODEL },
          reply: {
            content: [toolUse('Glob', { pattern: '*.nothing' })],
            stop_reason: 'tool_use',
            usage: { input_tokens: 10_000, output_tokens: 1_000 },
          },
        },
      ],
    },
  });
  onTestFinished(() => api.close());
  const home = tempDir('carapace-budget-home-');
  const project = realpathSync(tempDir('carapace-budget-project-'));
  const env = { CARAPACE_HOME: home, HOME: home, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: api.url };
  const run = async (argv: string[]) => {
    const { code, out } = await capturePrint(argv, { env, cwd: project });
    return { code, result: lastJsonLine(out) };
  };
  const requests = () => api.requests.filter((r) => r.body.model === MODEL).length;
  return { run, requests, home, project };
}

describe('carapace -p and budgets', () => {
  it('--max-budget-usd stops before the next model call once the run has spent it', async () => {
    const t = await setup();
    // $0.10: after two responses 90,000 (< 100,000) so a third goes out; 135,000 stops the fourth.
    const { code, result } = await t.run([
      '-p',
      'go',
      '--model',
      MODEL,
      '--output-format',
      'json',
      '--max-budget-usd',
      '0.10',
    ]);
    expect(t.requests()).toBe(3);
    expect(code).toBe(1);
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'error_max_budget_usd',
      is_error: true,
      terminal_reason: 'budget',
      total_cost_usd: (3 * PER_RESPONSE_MICROS) / 1e6,
    });
    expect(String(result['result'])).toContain('--max-budget-usd');
  });

  it('a settings budget ends the run the same way (nobody to ask), and the stop is logged', async () => {
    const t = await setup();
    writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify({ budgets: { sessionUsd: 0.09 } }));
    const { code, result } = await t.run(['-p', 'go', '--model', MODEL, '--output-format', 'json']);
    // 45,000, then 90,000 = the limit: two requests.
    expect(t.requests()).toBe(2);
    expect(code).toBe(1);
    expect(result).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    const transcript = readFileSync(
      path.join(t.home, 'projects', findSlugDir(t.home), `${String(result['session_id'])}.jsonl`),
      'utf8',
    );
    const budgetLines = transcript
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; event?: string })
      .filter((l) => l.type === 'budget');
    expect(budgetLines.map((l) => l.event)).toEqual(['warning', 'stopped']);
  });

  it('the daily budget counts what earlier runs spent today (from the usage ledger)', async () => {
    const t = await setup();
    writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify({ budgets: { dailyUsd: 0.1 } }));
    // 45,000, 90,000, 135,000: the third response passes the limit.
    expect((await t.run(['-p', 'go', '--model', MODEL, '--output-format', 'json'])).code).toBe(1);
    expect(t.requests()).toBe(3);
    // A new session: today's 135,000 is already over $0.10, so no request goes out.
    const { result } = await t.run(['-p', 'again', '--model', MODEL, '--output-format', 'json']);
    expect(t.requests()).toBe(3);
    expect(result).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    expect(String(result['result'])).toContain('$0.14 spent of the daily budget of $0.10');
  });

  it("a project's .claude/settings.json cannot raise the person's budget", async () => {
    const t = await setup();
    writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify({ budgets: { sessionUsd: 0.05 } }));
    mkdirSync(path.join(t.project, '.claude'));
    writeFileSync(
      path.join(t.project, '.claude', 'settings.json'),
      JSON.stringify({ budgets: { sessionUsd: 1000 } }),
    );
    const { result } = await t.run(['-p', 'go', '--model', MODEL, '--output-format', 'json']);
    expect(t.requests()).toBe(2);
    expect(result['subtype']).toBe('error_max_budget_usd');
  });

  it('an invalid budget setting refuses model calls instead of running without a limit', async () => {
    const t = await setup();
    writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify({ budgets: { sesionUsd: 5 } }));
    const { code, result } = await t.run(['-p', 'go', '--model', MODEL, '--output-format', 'json']);
    expect(t.requests()).toBe(0);
    expect(code).toBe(1);
    expect(String(result['result'])).toContain('budgets');
  });
});

function findSlugDir(home: string): string {
  const dirs = readdirSync(path.join(home, 'projects'));
  return dirs[0] ?? '';
}

describe('--max-budget-usd', () => {
  it('takes an amount in USD above 0 and refuses anything else', () => {
    expect(parsePrintArgs(['-p', 'x', '--max-budget-usd', '0.5']).maxBudgetUsd).toBe(0.5);
    for (const bad of ['0', '-1', 'abc', '', 'Infinity'])
      expect(() => parsePrintArgs(['-p', 'x', '--max-budget-usd', bad])).toThrow(/--max-budget-usd/);
  });
});
