import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text, toolUse } from '../../test-support/engine';
import { contextFromLines } from '../session/context-window';
import { snip } from './snip';

describe('snip', () => {
  it('drops the middle of a long history: the opening and the latest messages stay, with a marker', async () => {
    const read = (name: string) => ({
      reply: { content: [toolUse('Read', { file_path: `${name}.txt` })], stop_reason: 'tool_use' as const },
    });
    const t = await testEngine(
      {
        steps: [
          read('r1'),
          read('r2'),
          read('r3'),
          read('r4'),
          { reply: { content: [text('All four read.')] } },
        ],
      },
      { compaction: { snip: { maxMessages: 8, keepRecent: 4 } } },
    );
    for (const f of ['r1', 'r2', 'r3', 'r4'])
      writeFileSync(path.join(t.project, `${f}.txt`), `${f}-CONTENT\n`);
    const { result, events } = await t.run('OPENING-TASK: read r1 to r4');
    expect(result.terminal.reason).toBe('completed');

    // The fifth request came after nine messages (past eight): snipped to the opening and four more.
    const bodies = t.api.requests.map((r) => r.body);
    expect(bodies).toHaveLength(5);
    for (const b of bodies.slice(0, 4)) expect(JSON.stringify(b.messages)).not.toContain('snipped');
    const last = bodies[4]?.messages ?? [];
    expect(last.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    const sent = JSON.stringify(last);
    expect(JSON.stringify(last[0])).toContain('OPENING-TASK');
    expect(JSON.stringify(last[0])).toContain('4 earlier messages were snipped');
    expect(sent).not.toContain('r1-CONTENT');
    expect(sent).not.toContain('r2-CONTENT');
    expect(sent).toContain('r3-CONTENT');
    expect(sent).toContain('r4-CONTENT');

    expect(events.some((e) => e.type === 'compaction' && e.trigger === 'snip')).toBe(true);
    expect(events.some((e) => e.type === 'item' && e.item.kind === 'notice' && e.item.code === 'snip')).toBe(
      true,
    );
    // The transcript keeps everything, and a resumed session continues from the snipped context.
    const lines = t.lines().lines;
    expect(JSON.stringify(lines)).toContain('r1-CONTENT');
    expect(contextFromLines(lines).map((m) => m.id)).toEqual(t.engine.contextWindow.map((m) => m.id));
    expect(JSON.stringify(contextFromLines(lines))).not.toContain('r1-CONTENT');
  });

  it('does nothing below the limit, and never starts the kept part on a tool result', () => {
    const msg = (i: number, role: 'user' | 'assistant', result: boolean) => ({
      kind: 'message' as const,
      id: `m${i}`,
      role,
      content: result
        ? [{ type: 'tool_result' as const, tool_use_id: `t${i - 1}`, content: 'x' }]
        : role === 'assistant'
          ? [{ type: 'tool_use' as const, id: `t${i}`, name: 'Read', input: {} }]
          : [{ type: 'text' as const, text: 'go' }],
      createdAt: '',
      status: 'complete' as const,
    });
    const history = [msg(0, 'user', false)];
    for (let i = 1; i <= 20; i++) history.push(msg(i, i % 2 === 1 ? 'assistant' : 'user', i % 2 === 0));
    expect(snip(history, { maxMessages: 21, keepRecent: 5 })).toBeNull();
    const out = snip(history, { maxMessages: 10, keepRecent: 5 });
    // 21 messages, keep from index 16 (a tool result) → moved on to 17 (the assistant's call).
    expect(out?.keepFromId).toBe('m17');
    expect(out?.messages[1]?.role).toBe('assistant');
    expect(out?.dropped).toBe(16);
  });
});
