import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { memoryDirFor } from '../harness/memory/dir/paths';
import { text } from '../test-support/engine';
import { capturePrint } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';

/*
 * autoDream in print mode: the process ends with the run, so a consolidation started at its first
 * turn would be killed at exit and the state left as it was: every later run would start (and pay
 * for) another. A run is counted, and no consolidation starts.
 */
describe('carapace -p and autoDream', () => {
  it('counts each new run but never starts a consolidation; a continued run is not counted again', async () => {
    const api = await startScriptedApi({
      scenario: {
        steps: [
          {
            times: true,
            when: { model: 'claude-haiku-4-5' },
            reply: { content: [text('{"selected_memories": []}')] },
          },
          { times: true, when: { systemText: 'You consolidate' }, reply: { content: [text('no tool')] } },
          { times: true, reply: { content: [text('Done.')] } },
        ],
      },
    });
    onTestFinished(() => api.close());
    const home = tempDir('carapace-print-home-');
    const project = realpathSync(tempDir('carapace-print-project-'));
    const dir = memoryDirFor({ carapaceHome: home, projectRoot: project });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'a.md'), '---\nname: a\ndescription: a note\ntype: user\n---\nA\n');
    // Every gate but the session count passes already.
    writeFileSync(
      path.join(dir, '.dream-state.json'),
      JSON.stringify({ lastConsolidatedAt: null, sessionsSince: 4 }),
    );
    const env = { CARAPACE_HOME: home, HOME: home, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: api.url };
    const run = async (argv: string[]) => (await capturePrint(argv, { env, cwd: project })).code;
    const sessions = () =>
      (JSON.parse(readFileSync(path.join(dir, '.dream-state.json'), 'utf8')) as { sessionsSince: number })
        .sessionsSince;

    for (let i = 1; i <= 3; i++) {
      expect(await run(['-p', `hello ${i}`, '--model', 'claude-sonnet-4-5'])).toBe(0);
      expect(sessions()).toBe(4 + i);
    }
    expect(await run(['-p', 'and once more', '-c', '--model', 'claude-sonnet-4-5'])).toBe(0);
    expect(sessions()).toBe(7);

    const consolidations = api.requests.filter((r) =>
      JSON.stringify(r.body.system).includes('You consolidate'),
    );
    expect(consolidations).toHaveLength(0);
    // The runs did reach the model (and the selector), so the check above is not vacuous.
    expect(api.requests.filter((r) => r.body.model === 'claude-sonnet-4-5')).toHaveLength(4);
  });
});
