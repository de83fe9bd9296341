import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text, toolUse } from '../../test-support/engine';
import type { ContentBlock, MessageItem } from '@shared/domain/messages';
import { Microcompact, PROMPT_CACHE_TTL_MS } from './microcompact';
import { withoutCacheControl } from './request';

const FILES = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'];
const fileText = (name: string) =>
  Array.from({ length: 20 }, (_, i) => `${name} line ${i + 1}: some content`).join('\n');

describe('microcompact', () => {
  it('clears old Read outputs only when the cache is cold, and never changes what the previous request cached', async () => {
    let clock = 1_000_000;
    const read = (name: string) => ({
      reply: { content: [toolUse('Read', { file_path: `${name}.txt` })], stop_reason: 'tool_use' as const },
    });
    const t = await testEngine(
      {
        steps: [
          // Turn 1: seven Reads, one after another, then an answer (eight requests, the cache warm).
          ...FILES.slice(0, 7).map(read),
          { reply: { content: [text('Read them all.')] } },
          // Turn 2, after a pause longer than the cache TTL: one more Read, then an answer.
          read('f8'),
          { reply: { content: [text('And the eighth.')] } },
        ],
      },
      { compaction: { microcompact: { keepRecent: 5, now: () => clock } } },
    );
    for (const f of FILES) writeFileSync(path.join(t.project, `${f}.txt`), `${fileText(f)}\n`);

    await t.run('read f1 to f7');
    clock += PROMPT_CACHE_TTL_MS + 1;
    await t.run('now f8');

    const sent = t.api.requests.map((r) => JSON.stringify(r.body.messages));
    expect(sent).toHaveLength(10);
    // While the cache was warm (turn 1), nothing was cleared, though seven results had piled up.
    for (const s of sent.slice(0, 8)) expect(s).not.toContain('old tool output cleared');
    expect(sent[7]).toContain('f1 line 20');

    // The first request after the pause: the two oldest of seven results are placeholders, the five
    // most recent verbatim.
    const cold = sent[8] ?? '';
    expect(cold).toContain('[old tool output cleared: Read of f1.txt, 20 lines.');
    expect(cold).toContain('[old tool output cleared: Read of f2.txt, 20 lines.');
    expect(cold).not.toContain('f1 line 1:');
    expect(cold).not.toContain('f2 line 1:');
    for (const f of ['f3', 'f4', 'f5', 'f6', 'f7']) expect(cold).toContain(`${f} line 20`);

    // Within turn 2 the cache is warm again: the eighth result pushes f3 past the five most recent,
    // but it stays verbatim, so the last request repeats the previous one's messages exactly.
    expect(sent[9]).toContain('f3 line 20');
    expect(sent[9]).toContain('f8 line 20');
    const requests = t.api.requests.map((r) => withoutCacheControl(r.body.messages ?? []) as unknown[]);
    for (let k = 1; k < requests.length; k++) {
      if (k === 8) continue; // the cold start: no cached prefix to keep
      const before = requests[k - 1] ?? [];
      expect(JSON.stringify(requests[k]?.slice(0, before.length))).toBe(JSON.stringify(before));
    }

    // Only the request changed: the context window and the transcript on disk keep the full output.
    expect(JSON.stringify(t.engine.contextWindow)).toContain('f1 line 20');
    const onDisk = JSON.stringify(t.lines().lines);
    expect(onDisk).toContain('f1 line 20');
    expect(onDisk).not.toContain('old tool output cleared');
  });

  it('leaves results of other tools, and outputs shorter than a placeholder, as they are', () => {
    const long = fileText('x');
    const item = (role: 'user' | 'assistant', content: ContentBlock[]): MessageItem => ({
      kind: 'message',
      id: `${role}-${JSON.stringify(content).length}-${Math.random()}`,
      role,
      content,
      createdAt: '2026-01-01T00:00:00.000Z',
      status: 'complete',
    });
    const call = (id: string, name: string, input: Record<string, unknown>) =>
      item('assistant', [{ type: 'tool_use', id, name, input }]);
    const result = (id: string, content: string) =>
      item('user', [{ type: 'tool_result', tool_use_id: id, content }]);
    const messages = [
      call('a', 'mcp__docs__fetch', { url: 'x' }),
      result('a', long),
      call('b', 'Bash', { command: 'echo hi' }),
      result('b', 'hi'),
      call('c', 'Grep', { pattern: 'line \\d+' }),
      result('c', long),
    ];
    const mc = new Microcompact({ keepRecent: 0, now: () => 0 });
    const sent = JSON.stringify(mc.forRequest(messages).messages);
    expect(sent).toContain('[old tool output cleared: Grep for line \\\\d+, 20 lines.');
    // Not a compactable tool, and an output shorter than its placeholder: both sent as they were.
    expect(sent).toContain(JSON.stringify(long).slice(1, -1));
    expect(sent).toContain('"content":"hi"');
    expect(mc.clearedCount).toBe(1);
    // The input was not changed.
    expect(JSON.stringify(messages)).not.toContain('old tool output cleared');
  });
});
