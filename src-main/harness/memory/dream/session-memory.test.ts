import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { text, toolUse } from '../../../test-support/engine';
import { testRuntime } from '../../../test-support/runtime';
import { memoryDirFor } from '../dir/paths';
import { readDreamState, writeDreamState } from './dream-state';

/*
 * The wiring as a session gets it (createRuntime): recall from the project's memory directory under
 * $CARAPACE_HOME, and autoDream checked at the first turn, as a dream task of the session.
 */

type Steps = Parameters<typeof testRuntime>[0]['steps'];

const steps: Steps = [
  { when: { model: 'claude-haiku-4-5' }, reply: { content: [text('{"selected_memories": ["deploy.md"]}')] } },
  {
    when: { systemText: 'You consolidate' },
    reply: {
      stop_reason: 'tool_use',
      content: [
        toolUse('save_consolidated_memories', {
          files: [{ name: 'MEMORY.md', content: '- [deploy](deploy.md)\n' }],
          remove: [],
        }),
      ],
    },
  },
  { when: { model: 'claude-sonnet-4-5', lastUserText: 'ship it' }, reply: { content: [text('Shipped.')] } },
];

async function withMemory(settings?: object) {
  const t = await testRuntime({ steps });
  const dir = memoryDirFor({ carapaceHome: t.home, projectRoot: t.project });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'deploy.md'),
    '---\nname: deploy\ndescription: how to deploy\ntype: user\n---\nUse make release.\n',
  );
  await writeDreamState(dir, { lastConsolidatedAt: null, sessionsSince: 4 });
  if (settings) writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify(settings));
  return { t, dir };
}

describe('session memory wiring', () => {
  it("recalls into a main agent's turn and consolidates at the fifth session as a dream task", async () => {
    const { t, dir } = await withMemory();
    const turn = await t.run('ship it');
    expect(turn.result.text).toBe('Shipped.');
    const main = t.api.requests.find(
      (r) =>
        r.body.model === 'claude-sonnet-4-5' &&
        !r.body.tools?.some((x) => x.name === 'save_consolidated_memories'),
    );
    expect(JSON.stringify(main?.body.messages)).toContain('Use make release.');
    // Listed for the memory browser's "Loaded in this session".
    expect(t.runtime.engine.loadedContext().files).toContainEqual({
      scope: 'auto-memory',
      path: path.join(dir, 'deploy.md'),
      importedBy: null,
      text: expect.stringContaining('Use make release.'),
    });

    for (let i = 0; i < 200 && t.runtime.engine.tasks.list()[0]?.status !== 'completed'; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(t.runtime.engine.tasks.list()).toMatchObject([{ kind: 'dream', status: 'completed' }]);
    expect((await readDreamState(dir)).sessionsSince).toBe(0);
    // Selector and consolidation requests count in the session's cost.
    expect(Object.keys(t.runtime.engine.cost.modelUsage()).sort()).toEqual([
      'claude-haiku-4-5',
      'claude-sonnet-4-5',
    ]);
    expect(t.runtime.engine.cost.totalUsage().inputTokens).toBeGreaterThan(0);
  });

  it('does nothing with autoMemoryEnabled: false in the user settings', async () => {
    const { t, dir } = await withMemory({ autoMemoryEnabled: false });
    const turn = await t.run('ship it');
    expect(turn.result.text).toBe('Shipped.');
    expect(t.api.requests.map((r) => r.body.model)).toEqual(['claude-sonnet-4-5']);
    expect(t.runtime.engine.tasks.list()).toHaveLength(0);
    expect((await readDreamState(dir)).sessionsSince).toBe(4);
  });
});
