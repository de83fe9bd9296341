import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { localDay, UsageLedger } from '../harness/cost/ledger';
import { memoryDirFor } from '../harness/memory/dir/paths';
import { readTranscript } from '../harness/session/transcript-file';
import { projectSlug } from '../platform/paths';
import { testCarapace } from '../test-support/carapace';
import { toolUse } from '../test-support/engine';

const memory = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: about ${name}\ntype: project\n---\n\n${body}\n`;

it('"Consolidate now" writes its usage to a transcript of its own, which the usage ledger counts', async () => {
  const t = await testCarapace({
    steps: [
      {
        reply: {
          id: 'msg_consolidate',
          model: 'claude-sonnet-4-5',
          stop_reason: 'tool_use',
          content: [
            toolUse('save_consolidated_memories', {
              files: [{ name: 'MEMORY.md', content: '- [deploy](deploy.md) — how deploys are done\n' }],
              remove: [],
            }),
          ],
          usage: { input_tokens: 5000, output_tokens: 200 },
        },
      },
    ],
  });
  const project = t.carapace.services.workspace.open(t.project).project;
  const memoryDir = memoryDirFor({ carapaceHome: t.home, projectRoot: t.project });
  mkdirSync(memoryDir, { recursive: true });
  writeFileSync(path.join(memoryDir, 'deploy.md'), memory('deploy', 'Deploys go through make release.'));

  const answer = await t.carapace.services.memory.consolidate(project.id);
  expect(answer).toMatchObject({ ran: true });
  expect(t.api.requests).toHaveLength(1);

  // Sonnet 4.5 by hand: 5,000 × 3 + 200 × 15 = 18,000 µ$.
  const dir = path.join(t.home, 'projects', projectSlug(t.project));
  const files = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  const { lines } = readTranscript(path.join(dir, files[0] as string));
  expect(lines.map((l) => l.type)).toEqual(['session', 'title', 'usage']);
  expect(lines[1]).toMatchObject({ title: 'Memory consolidation' });
  expect(lines[2]).toMatchObject({
    apiId: 'msg_consolidate',
    costMicros: 18_000,
    purpose: 'consolidation',
    turn: 0,
  });

  const ledger = new UsageLedger({ carapaceHome: t.home });
  await ledger.refresh();
  const today = localDay(Date.now());
  const r = ledger.report({ projectPaths: [t.project], from: today, to: today, sources: ['carapace'] });
  expect(r.total.costMicros).toBe(18_000);
  expect(ledger.daySpend(today).allMicros).toBe(18_000);
});

it('a consolidation refused before any model call leaves no transcript behind', async () => {
  const t = await testCarapace({ steps: [] });
  const project = t.carapace.services.workspace.open(t.project).project;
  // No memories yet: nothing is sent to the model.
  await t.carapace.services.memory.consolidate(project.id);
  expect(t.api.requests).toHaveLength(0);
  const dir = path.join(t.home, 'projects', projectSlug(t.project));
  const names = existsSync(dir) ? readdirSync(dir) : [];
  expect(names.filter((n) => n.endsWith('.jsonl'))).toEqual([]);
});
