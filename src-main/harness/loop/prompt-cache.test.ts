import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text, toolUse } from '../../test-support/engine';
import { countBreakpoints, withoutCacheControl } from './request';

type Recorded = Awaited<ReturnType<typeof testEngine>>['api']['requests'][number];
const body = (r: Recorded | undefined) => r?.body ?? {};

describe('the cached prefix: tools and system prompt stay byte-identical from turn to turn', () => {
  it('five user turns with tool calls (a cd among them) send the same tools and system, with breakpoints', async () => {
    const t = await testEngine({
      steps: [
        // Turn 1: a Read, then an answer.
        { reply: { content: [toolUse('Read', { file_path: 'a.txt' })], stop_reason: 'tool_use' } },
        { reply: { content: [text('a.txt read.')] } },
        // Turn 2: the model moves the shell into a subfolder (the next turn starts there).
        { reply: { content: [toolUse('Bash', { command: 'cd sub && pwd' })], stop_reason: 'tool_use' } },
        { reply: { content: [text('Moved.')] } },
        // Turn 3: two tools in one reply.
        {
          reply: {
            content: [toolUse('Glob', { pattern: '*.txt' }), toolUse('Grep', { pattern: 'hello' })],
            stop_reason: 'tool_use',
          },
        },
        { reply: { content: [text('Searched.')] } },
        // Turns 4 and 5: plain answers.
        { reply: { content: [text('Four.')] } },
        { reply: { content: [text('Five.')] } },
      ],
    });
    writeFileSync(path.join(t.project, 'a.txt'), 'hello\n');
    mkdirSync(path.join(t.project, 'sub'));
    for (const prompt of ['one', 'two', 'three', 'four', 'five']) {
      const { result } = await t.run(prompt);
      expect(result.terminal.reason).toBe('completed');
    }
    // The cd took: the last turn's tools ran in the subfolder.
    expect(t.engine.workingDirectory).toBe(path.join(t.project, 'sub'));

    const requests = t.api.requests;
    expect(requests).toHaveLength(8);
    const first = body(requests[0]);
    const system = JSON.stringify(first.system);
    const tools = JSON.stringify(first.tools);
    for (const r of requests) {
      expect(JSON.stringify(body(r).system)).toBe(system);
      expect(JSON.stringify(body(r).tools)).toBe(tools);
    }
    // Breakpoints on the last tool and on the system prompt.
    expect(first.tools?.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(first.system).toEqual([expect.objectContaining({ cache_control: { type: 'ephemeral' } })]);
    expect(first.tools?.slice(0, -1).some((tool) => 'cache_control' in tool)).toBe(false);
  });

  it('puts a breakpoint on the last message only, and each request extends the previous one unchanged', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [toolUse('Read', { file_path: 'a.txt' })], stop_reason: 'tool_use' } },
        { reply: { content: [toolUse('Read', { file_path: 'a.txt', offset: 1 })], stop_reason: 'tool_use' } },
        { reply: { content: [text('Done.')] } },
        { reply: { content: [text('Again.')] } },
      ],
    });
    writeFileSync(path.join(t.project, 'a.txt'), 'hello\n');
    await t.run('read it');
    await t.run('and again');
    const requests = t.api.requests.map((r) => r.body);
    expect(requests).toHaveLength(4);
    for (const r of requests) {
      const messages = r.messages ?? [];
      // Exactly one message breakpoint: the last block of the last (user) message.
      const last = messages.at(-1) as { role: string; content: { cache_control?: unknown }[] };
      expect(last.role).toBe('user');
      expect(last.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(countBreakpoints(messages)).toBe(1);
      // Tools, system and the last message: within the API's limit of four.
      expect(countBreakpoints([r.tools, r.system, messages])).toBeLessThanOrEqual(4);
    }
    // Every request starts with the previous one's messages, unchanged but for the moved marker.
    for (let k = 1; k < requests.length; k++) {
      const before = withoutCacheControl(requests[k - 1]?.messages ?? []) as unknown[];
      const now = withoutCacheControl(requests[k]?.messages ?? []) as unknown[];
      expect(JSON.stringify(now.slice(0, before.length))).toBe(JSON.stringify(before));
    }
  });

  it('a new day rides in the messages as a note; the system prompt keeps the first day', async () => {
    let clock = new Date('2026-03-01T23:58:00Z');
    const t = await testEngine(
      {
        steps: [
          { reply: { content: [text('One.')] } },
          { reply: { content: [text('Two.')] } },
          { reply: { content: [text('Three.')] } },
        ],
      },
      { clock: () => clock },
    );
    await t.run('before midnight');
    clock = new Date('2026-03-02T00:03:00Z');
    await t.run('after midnight');
    clock = new Date('2026-03-02T09:00:00Z');
    await t.run('later that day');
    const [first, second, third] = t.api.requests.map((r) => r.body);
    expect(JSON.stringify(first?.system)).toContain("Today's date: 2026-03-01");
    expect(JSON.stringify(third?.system)).toBe(JSON.stringify(first?.system));
    expect(JSON.stringify(first?.messages)).not.toContain('The date has changed');
    expect(JSON.stringify(second?.messages)).toContain('today is 2026-03-02');
    // Told once: the third request repeats the note where it was, and adds none.
    expect(JSON.stringify(third?.messages).split('The date has changed').length - 1).toBe(1);
  });
});
