import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text } from '../../test-support/engine';
import { tempDir } from '../../test-support/temp';
import { HookRunner } from '../hooks/dispatch';
import type { ConfiguredHook } from '../hooks/sources';
import { compactHooks } from '../hooks/wire';
import { COMPACT_INSTRUCTIONS } from './nudges';

/*
 * Reactive compaction (the API refused the prompt as too long) is an automatic compaction: the
 * PreCompact and PostCompact hooks run around it with trigger "auto", as around autocompact. Real
 * command hooks through the real runner; the model is the scripted Messages API.
 */

const PTL = {
  error: {
    status: 400,
    type: 'invalid_request_error',
    message: 'prompt is too long: 250000 tokens > 200000 maximum',
  },
};

type Body = { messages?: { role: string; content: unknown }[] };
const lastUserText = (body: Body | undefined) => {
  const m = body?.messages?.at(-1);
  return Array.isArray(m?.content)
    ? (m.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('')
    : String(m?.content);
};

function runnerWith(pre: string, markers: string) {
  const file = path.join(markers, 'settings.json');
  const hook = (event: 'PreCompact' | 'PostCompact', command: string): ConfiguredHook => ({
    event,
    matcher: 'auto',
    handler: { type: 'command', command },
    source: 'user',
    file,
  });
  const hooks = [hook('PreCompact', pre), hook('PostCompact', `cat > '${path.join(markers, 'post.json')}'`)];
  return new HookRunner({
    hooks: () => hooks,
    sessionId: 's',
    transcriptPath: path.join(markers, 's.jsonl'),
    projectDir: markers,
    cwd: () => markers,
    permissionMode: () => 'default',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    home: markers,
  });
}

describe('reactive compaction runs the compaction hooks', () => {
  it('PreCompact (trigger auto) runs first and its output joins the instructions; PostCompact gets the summary', async () => {
    const markers = tempDir('carapace-rch-');
    const runner = runnerWith(
      `cat > '${path.join(markers, 'pre.json')}'; echo "Keep every file name."`,
      markers,
    );
    const t = await testEngine(
      {
        steps: [
          { reply: { content: [text('First answer.')] } },
          { reply: PTL },
          { reply: { content: [text('SUMMARY: a first question was answered.')] } },
          { reply: { content: [text('Second answer.')] } },
        ],
      },
      { compaction: { autoCompact: { hooks: compactHooks(runner) } } },
    );
    await t.run('first');
    const { result, transitions } = await t.run('second');
    expect(transitions).toEqual(['reactive_compact_retry']);
    expect(result.terminal.reason).toBe('completed');
    const pre = JSON.parse(readFileSync(path.join(markers, 'pre.json'), 'utf8')) as Record<string, unknown>;
    expect(pre).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'auto' });
    // The summary request carried what the hook printed.
    const ask = lastUserText(t.api.requests[2]?.body);
    expect(ask.startsWith(COMPACT_INSTRUCTIONS)).toBe(true);
    expect(ask).toContain('Keep every file name.');
    const post = JSON.parse(readFileSync(path.join(markers, 'post.json'), 'utf8')) as Record<string, unknown>;
    expect(post).toMatchObject({ hook_event_name: 'PostCompact', trigger: 'auto' });
    expect(String(post['compact_summary'])).toContain('SUMMARY: a first question was answered.');
  });

  it('a PreCompact exit 2 blocks it: no summary is asked for, a note says why, the turn ends with the context error', async () => {
    const markers = tempDir('carapace-rch-');
    const runner = runnerWith('echo "not during the release" >&2; exit 2', markers);
    const t = await testEngine(
      {
        steps: [
          { reply: { content: [text('First answer.')] } },
          { reply: PTL },
          { times: true, reply: { content: [text('SUMMARY that must not be asked for.')] } },
        ],
      },
      { compaction: { autoCompact: { hooks: compactHooks(runner) } } },
    );
    await t.run('first');
    const { result, events, transitions } = await t.run('second');
    expect(transitions).toEqual([]);
    expect(result.terminal.reason).toBe('prompt_too_long');
    expect(t.api.requests).toHaveLength(2);
    const note = events.find((e) => e.type === 'compaction');
    expect(note).toMatchObject({ type: 'compaction', trigger: 'auto', ok: false });
    expect(note?.type === 'compaction' ? note.detail : '').toMatch(
      /PreCompact hook blocked the compaction.*not during the release/s,
    );
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
    expect(existsSync(path.join(markers, 'post.json'))).toBe(false);
  });
});
