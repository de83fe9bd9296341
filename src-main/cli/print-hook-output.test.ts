import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { NoticeItem } from '@shared/domain/messages';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { text, toolUse } from '../test-support/engine';
import { capturePrint, printEnv } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';

/* A hook run's note carries its output into the session's transcript file (runtime/hook-output-notes.ts). */
describe('hook output in the transcript (carapace -p, scripted Messages API)', () => {
  it('each hook note in the session file holds the stdout and stderr of its run', async () => {
    const home = tempDir('carapace-hook-notes-home-');
    const project = realpathSync(tempDir('carapace-hook-notes-project-'));
    const api = await startScriptedApi({
      scenario: {
        steps: [
          { reply: { content: [toolUse('Bash', { command: 'echo hi' })] } },
          { times: true, reply: { content: [text('Done.')] } },
        ],
      },
    });
    onTestFinished(() => api.close());
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    const hooks = {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo checked; echo careful >&2' }] },
      ],
      PostToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "lint failed" >&2; exit 2' }] },
      ],
    };
    writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ hooks }));
    const { out } = await capturePrint(
      ['-p', 'go', '--allowedTools', 'Bash', '--model', 'claude-sonnet-4-5', '--output-format', 'json'],
      {
        env: printEnv(home, api.url),
        cwd: project,
      },
    );
    const sessionId = String((JSON.parse(out) as Record<string, unknown>)['session_id']);
    const file = readdirSync(home, { recursive: true, encoding: 'utf8' }).find((f) =>
      f.endsWith(`${sessionId}.jsonl`),
    );
    const notes = readFileSync(path.join(home, String(file)), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { item?: unknown }).item)
      .filter((i): i is NoticeItem => NoticeItem.safeParse(i).success && (i as NoticeItem).code === 'hook');
    expect(notes.map((n) => [n.hook?.event, n.hook?.outcome, n.hook?.stdout, n.hook?.stderr])).toEqual([
      ['PreToolUse', 'ok', 'checked\n', 'careful\n'],
      ['PostToolUse', 'block', '', 'lint failed\n'],
    ]);
  });
});
