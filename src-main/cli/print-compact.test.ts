import { realpathSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { text } from '../test-support/engine';
import { capturePrint } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';

describe('carapace -p /compact', () => {
  it('compacts a continued session; the next run starts from the summary', async () => {
    const api = await startScriptedApi({
      scenario: {
        steps: [
          { reply: { content: [text('First answer, OLD-DETAIL.')] } },
          { reply: { content: [text('SUMMARY-P: a first question was answered.')] } },
          { reply: { content: [text('Second answer.')] } },
          { reply: { content: [text('SUMMARY-Q: shorter.')] } },
        ],
      },
    });
    onTestFinished(() => api.close());
    const home = tempDir('carapace-compact-home-');
    const project = realpathSync(tempDir('carapace-compact-project-'));
    const env = { CARAPACE_HOME: home, HOME: home, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: api.url };
    const run = async (argv: string[]) => {
      const { code, out } = await capturePrint(argv, { env, cwd: project });
      return { code, out: out.trim() };
    };
    expect((await run(['-p', 'first question'])).code).toBe(0);
    const compacted = await run(['-p', '--continue', '/compact']);
    expect(compacted).toEqual({ code: 0, out: 'Conversation compacted: 2 message(s) summarized.' });
    expect((await run(['-p', '--continue', 'second question'])).out).toBe('Second answer.');
    const last = JSON.stringify(api.requests.at(-1)?.body.messages);
    expect(last).toContain('SUMMARY-P');
    // Once more, as stream-json: the compaction is marked by a compact_boundary line, as Claude Code's.
    const streamed = await run([
      '-p',
      '--continue',
      '--output-format',
      'stream-json',
      '/compact keep it short',
    ]);
    expect(streamed.code).toBe(0);
    const boundary = streamed.out
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { subtype?: string; compact_metadata?: { trigger: string; pre_tokens: number } },
      )
      .find((l) => l.subtype === 'compact_boundary');
    expect(boundary?.compact_metadata?.trigger).toBe('manual');
    expect(boundary?.compact_metadata?.pre_tokens).toBeGreaterThan(0);
    expect(last).not.toContain('OLD-DETAIL');
  });
});
