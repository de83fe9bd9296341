import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { localDay, UsageLedger } from '../harness/cost/ledger';
import { readTranscript } from '../harness/session/transcript-file';
import { text, toolUse } from '../test-support/engine';
import { testRuntime } from '../test-support/runtime';
import { tempDir } from '../test-support/temp';
import { metaFromLines } from './session-meta';

// By hand. Sonnet 4.5 ($/MTok = µ$/token): input 3, output 15, 5 min write 3.75, 1 h write 6, read 0.3.
// p0: 3,000 + 1,500 + 1,000×3.75 + 3,000×6 + 2,000×0.3 = 26,850. p1: 300 + 300 = 600. p2: 600 + 150 = 750.
// Haiku 4.5 sub-agent (1, 5, read 0.1) with two web searches ($0.01 each): 300 + 150 + 100 + 20,000 = 20,550.
const TOTAL = 26_850 + 600 + 750 + 20_550;

async function sessionWithSubagent() {
  const t = await testRuntime({
    steps: [
      {
        when: { lastUserText: 'first' },
        reply: {
          id: 'msg_p0',
          content: [text('hi')],
          usage: {
            input_tokens: 1000,
            output_tokens: 100,
            cache_creation_input_tokens: 4000,
            cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 3000 },
            cache_read_input_tokens: 2000,
          },
        },
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
          usage: {
            input_tokens: 300,
            output_tokens: 30,
            cache_read_input_tokens: 1000,
            server_tool_use: { web_search_requests: 2 },
          },
        },
      },
      {
        when: { lastUserText: 'Sub done' },
        reply: { id: 'msg_p2', content: [text('All done')], usage: { input_tokens: 200, output_tokens: 10 } },
      },
    ],
  });
  expect((await t.run('first')).result.terminal.reason).toBe('completed');
  expect((await t.run('second')).result.terminal.reason).toBe('completed');
  return t;
}

it("the session list's cost equals the dashboard's: 1 h writes, web searches and sub-agents counted", async () => {
  const t = await sessionWithSubagent();
  const { lines } = readTranscript(t.transcriptFile);
  const meta = metaFromLines(t.transcriptFile, lines, new Date().toISOString());
  expect(Math.round(meta.costUsd * 1e6)).toBe(TOTAL);
  expect(meta.costKind).toBe('priced');

  const home = tempDir('meta-ledger-');
  const dest = path.join(home, 'projects', 'slug');
  mkdirSync(dest, { recursive: true });
  cpSync(t.dataDir, dest, { recursive: true });
  const ledger = new UsageLedger({ carapaceHome: home });
  await ledger.refresh();
  const today = localDay(Date.now());
  const r = ledger.report({ projectPaths: null, from: today, to: today, sources: ['carapace'] });
  expect(r.total.costMicros).toBe(TOTAL);
});

it("after a crash mid-turn (the turn's cost snapshot never written) the list still shows every response", async () => {
  const t = await sessionWithSubagent();
  const { lines } = readTranscript(t.transcriptFile);
  const lastCost = lines.map((l) => l.type).lastIndexOf('cost');
  const crashed = lines.filter((_, i) => i !== lastCost);
  const meta = metaFromLines(t.transcriptFile, crashed, new Date().toISOString());
  expect(Math.round(meta.costUsd * 1e6)).toBe(TOTAL);
});

it('messages a rewind cut out are not counted in the list entry rebuilt from the file', () => {
  const at = '2026-12-06T00:00:00.000Z';
  const message = (id: string, role: 'user' | 'assistant') => ({
    type: 'item' as const,
    item: {
      kind: 'message' as const,
      id,
      role,
      ...(role === 'user' ? { origin: 'user' as const } : {}),
      content: [{ type: 'text' as const, text: id }],
      createdAt: at,
      status: 'complete' as const,
    },
  });
  const head = {
    type: 'session' as const,
    version: 1 as const,
    sessionId: 's',
    projectPath: '/p',
    createdAt: at,
    model: 'm',
  };
  const lines = [
    head,
    message('u1', 'user'),
    message('a1', 'assistant'),
    message('u2', 'user'),
    message('a2', 'assistant'),
  ];
  expect(metaFromLines('/x/s.jsonl', lines, at).messageCount).toBe(4);
  const cut = [...lines, { type: 'cut' as const, fromItemId: 'u2', at }];
  expect(metaFromLines('/x/s.jsonl', cut, at).messageCount).toBe(2);
});
