import { mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CostReport } from '@shared/domain/cost-report';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { projectSlug } from '../platform/paths';
import { text, toolUse } from '../test-support/engine';
import { testCarapace } from '../test-support/carapace';
import { capturePrint, captureUsage, lastJsonLine } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';
import { readTranscript } from '../harness/session/transcript-file';
import { localDay, UsageLedger } from '../harness/cost/ledger';
import type { UsageLine } from '../harness/cost/usage-line';

/*
 * (It lives beside the CLI, not in harness/cost/: it runs `-p` and `carapace usage`, and the harness
 * may not import the CLI.)
 *
 * Issue 11, "Done when": one scripted multi-model `-p` session, and every figure Carapace shows for
 * it — the usage lines the ledger is built from, the ledger's report, the dashboard's `cost.report`
 * through the IPC router, the `-p` JSON result and `carapace usage --json` — equals the price table (resources/prices.json) applied by hand here.
 *
 * The table's rates, in $ per million tokens, which are micro-dollars (µ$) per token:
 *   Sonnet 4.5: input 3, output 15, 5 min write 3.75, 1 h write 6, cache read 0.30
 *   Haiku 4.5:  input 1, output 5,  5 min write 1.25, 1 h write 2, cache read 0.10
 *   web search: $10 per 1,000 = 10,000 µ$ a request
 *   claude-future-9: not in the table, so unpriced (its tokens counted, its cost not, never $0).
 */
const MAIN = 'claude-sonnet-4-5';
const CHEAP = 'claude-haiku-4-5';
const UNKNOWN = 'claude-future-9';

// 1. Main, asks the `cheap` agent: 2,000 in, 100 out, 10,000 5 min + 20,000 1 h writes.
const MAIN_1 = 2_000 * 3 + 100 * 15 + 10_000 * 3.75 + 20_000 * 6; // 6,000 + 1,500 + 37,500 + 120,000 = 165,000
// 2. The cheap sub-agent (Haiku): 3,000 in, 200 out, 4,000 5 min writes, 1,000 reads.
const SUB = 3_000 * 1 + 200 * 5 + 4_000 * 1.25 + 1_000 * 0.1; // 3,000 + 1,000 + 5,000 + 100 = 9,100
// 3. Main, asks the `oracle` agent: 100 in, 50 out, 40,000 reads.
const MAIN_2 = 100 * 3 + 50 * 15 + 40_000 * 0.3; // 300 + 750 + 12,000 = 13,050
// 4. The oracle sub-agent on an unknown model: 1,500 in, 50 out: unpriced.
// 5. Main, the answer after two web searches: 500 in, 300 out, 30,000 reads, 2 searches.
const MAIN_3 = 500 * 3 + 300 * 15 + 30_000 * 0.3 + 2 * 10_000; // 1,500 + 4,500 + 9,000 + 20,000 = 35,000
const TOTAL = MAIN_1 + SUB + MAIN_2 + MAIN_3; // 222,150 µ$ = $0.22215

type Step = ScenarioInput['steps'][number];

async function scriptedSession() {
  const main = (reply: Step['reply']): Step => ({ when: { model: MAIN }, reply });
  const api = await startScriptedApi({
    scenario: {
      steps: [
        main({
          id: 'msg_main_1',
          content: [
            toolUse('Agent', {
              description: 'Count files',
              prompt: 'Count the files.',
              subagent_type: 'cheap',
            }),
          ],
          stop_reason: 'tool_use',
          usage: {
            input_tokens: 2_000,
            output_tokens: 100,
            cache_creation_input_tokens: 30_000,
            cache_creation: { ephemeral_5m_input_tokens: 10_000, ephemeral_1h_input_tokens: 20_000 },
            cache_read_input_tokens: 0,
          },
        }),
        {
          when: { model: CHEAP },
          reply: {
            id: 'msg_sub_1',
            content: [text('Three files.')],
            usage: {
              input_tokens: 3_000,
              output_tokens: 200,
              cache_creation_input_tokens: 4_000,
              cache_creation: { ephemeral_5m_input_tokens: 4_000, ephemeral_1h_input_tokens: 0 },
              cache_read_input_tokens: 1_000,
            },
          },
        },
        main({
          id: 'msg_main_2',
          content: [
            toolUse('Agent', {
              description: 'Ask the oracle',
              prompt: 'Is it done?',
              subagent_type: 'oracle',
            }),
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 40_000 },
        }),
        {
          when: { model: UNKNOWN },
          reply: {
            id: 'msg_oracle_1',
            content: [text('Yes.')],
            usage: { input_tokens: 1_500, output_tokens: 50 },
          },
        },
        main({
          id: 'msg_main_3',
          content: [text('Three files, and done.')],
          usage: {
            input_tokens: 500,
            output_tokens: 300,
            cache_read_input_tokens: 30_000,
            server_tool_use: { web_search_requests: 2 },
          },
        }),
      ],
    },
  });
  onTestFinished(() => api.close());
  const home = tempDir('carapace-figures-home-');
  const project = realpathSync(tempDir('carapace-figures-project-'));
  const agents = path.join(project, '.claude', 'agents');
  mkdirSync(agents, { recursive: true });
  writeFileSync(
    path.join(agents, 'cheap.md'),
    '---\nname: cheap\ndescription: Cheap helper\nmodel: haiku\n---\nHelp.\n',
  );
  // The person's own agent: a project's file may not pick a model dearer (or less known) than the session's.
  mkdirSync(path.join(home, 'agents'));
  writeFileSync(
    path.join(home, 'agents', 'oracle.md'),
    `---\nname: oracle\ndescription: Oracle\nmodel: ${UNKNOWN}\n---\nAnswer.\n`,
  );
  const env = { CARAPACE_HOME: home, HOME: home, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: api.url };

  const { code, out, err } = await capturePrint(
    ['-p', 'Count the files', '--model', MAIN, '--output-format', 'json'],
    { env, cwd: project },
  );
  expect(code, `${err}\n${out}`).toBe(0);
  expect(api.requests.map((r) => r.body.model)).toEqual([MAIN, CHEAP, MAIN, UNKNOWN, MAIN]);
  return {
    home,
    project,
    env,
    result: lastJsonLine(out),
  };
}

function usageLinesUnder(dir: string): UsageLine[] {
  const lines: UsageLine[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl'))
        for (const l of readTranscript(p).lines) if (l.type === 'usage') lines.push(l);
    }
  };
  walk(dir);
  return lines;
}

describe('the figures of a scripted multi-model session equal the price table applied by hand', () => {
  it('in the usage lines, the ledger report, cost.report over IPC, the -p result and carapace usage --json', async () => {
    const s = await scriptedSession();

    // The records: one usage line per response, in the transcript of the agent that asked.
    const lines = usageLinesUnder(path.join(s.home, 'projects', projectSlug(s.project)));
    const byId: Record<string, UsageLine> = Object.fromEntries(lines.map((l) => [l.apiId ?? '', l]));
    expect(Object.keys(byId).sort()).toEqual([
      'msg_main_1',
      'msg_main_2',
      'msg_main_3',
      'msg_oracle_1',
      'msg_sub_1',
    ]);
    expect(byId['msg_main_1']).toMatchObject({
      model: MAIN,
      costMicros: MAIN_1,
      tokens: {
        input: 2_000,
        output: 100,
        cacheWrite5m: 10_000,
        cacheWrite1h: 20_000,
        cacheRead: 0,
        webSearches: 0,
      },
    });
    expect(byId['msg_sub_1']).toMatchObject({ model: CHEAP, costMicros: SUB });
    expect(byId['msg_main_2']).toMatchObject({ model: MAIN, costMicros: MAIN_2 });
    expect(byId['msg_oracle_1']).toMatchObject({ model: UNKNOWN, costMicros: null, priceVersion: null });
    expect(byId['msg_main_3']).toMatchObject({ model: MAIN, costMicros: MAIN_3, tokens: { webSearches: 2 } });

    // The ledger's report, as the dashboard asks for it.
    const ledger = new UsageLedger({ carapaceHome: s.home });
    await ledger.refresh();
    // The day the session ran (not "now": a run across midnight would look one day off).
    const today = localDay(Date.parse(byId['msg_main_1']!.at));
    const report = ledger.report({
      projectPaths: [s.project],
      from: today,
      to: today,
      sources: ['carapace'],
    });
    expect(report.total).toEqual({
      costMicros: TOTAL,
      tokens: {
        input: 7_100,
        output: 700,
        cacheWrite5m: 14_000,
        cacheWrite1h: 20_000,
        cacheRead: 71_000,
        webSearches: 2,
      },
      records: 5,
      unpricedRecords: 1,
    });
    expect(report.days.at(-1)?.total.costMicros).toBe(TOTAL);
    expect(report.models.map((m) => [m.model, m.costMicros, m.records, m.priced])).toEqual([
      [MAIN, MAIN_1 + MAIN_2 + MAIN_3, 3, true],
      [CHEAP, SUB, 1, true],
      [UNKNOWN, 0, 1, false],
    ]);
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({
      costMicros: TOTAL,
      subAgentCostMicros: SUB,
      turns: 1,
      unpricedRecords: 1,
    });

    // The dashboard's question, through the real IPC router of a composed app on the same data folder.
    const app = await testCarapace(
      { steps: [] },
      { CARAPACE_HOME: s.home, CLAUDE_CONFIG_DIR: tempDir('no-claude-') },
    );
    const projectId = app.carapace.services.workspace.open(s.project).project.id;
    const answer = await app.carapace.router.dispatch(
      'cost.report',
      { scope: { kind: 'project', projectId }, from: today, to: today, sources: ['carapace'] },
      { transport: 'websocket' },
    );
    const dashboard = CostReport.parse(answer.ok ? answer.value : answer);
    expect(dashboard.total).toEqual(report.total);
    expect(dashboard.models).toEqual(report.models);
    expect(dashboard.sessions[0]).toMatchObject({ costMicros: TOTAL, subAgentCostMicros: SUB });

    // The -p result: the same total, in dollars.
    expect(s.result['total_cost_usd']).toBe(TOTAL / 1e6);
    expect(s.result['subtype']).toBe('success');
    expect(s.result['modelUsage']).toMatchObject({
      [MAIN]: { costUSD: (MAIN_1 + MAIN_2 + MAIN_3) / 1e6, webSearchRequests: 2, priced: true },
      [CHEAP]: { costUSD: SUB / 1e6, priced: true },
      [UNKNOWN]: { inputTokens: 1_500, outputTokens: 50, priced: false },
    });

    // carapace usage --json, over the same transcripts.
    const { code, out } = await captureUsage(['daily', '--json', '--source', 'carapace', '--since', today], {
      env: s.env,
      cwd: s.project,
      home: s.home,
    });
    expect(code).toBe(0);
    const usage = JSON.parse(out) as {
      daily: { day: string; costMicros: number }[];
      total: { costMicros: number; costUsd: number; unpricedRecords: number };
    };
    expect(usage.daily).toEqual([expect.objectContaining({ day: today, costMicros: TOTAL })]);
    expect(usage.total).toMatchObject({ costMicros: TOTAL, costUsd: 0.22215, unpricedRecords: 1 });
  });
});
