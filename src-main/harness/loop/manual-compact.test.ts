import { describe, expect, it } from 'vitest';
import { testEngine, text } from '../../test-support/engine';
import { contextFromLines } from '../session/context-window';
import { parseCompactCommand } from './manual-compact';
import { COMPACT_INSTRUCTIONS } from './nudges';

type Body = { messages?: { role: string; content: unknown }[] };
const lastUserText = (body: Body) => {
  const m = body.messages?.at(-1);
  return Array.isArray(m?.content)
    ? (m.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('')
    : String(m?.content);
};

describe('/compact [instructions]', () => {
  it('parses the command and its instructions, and nothing else', () => {
    expect(parseCompactCommand('/compact')).toEqual({ instructions: undefined });
    expect(parseCompactCommand('  /compact   keep the API names ')).toEqual({
      instructions: 'keep the API names',
    });
    expect(parseCompactCommand('/compacting')).toBeNull();
    expect(parseCompactCommand('please /compact')).toBeNull();
  });

  it('summarizes the whole conversation with the instructions; the next turn starts from the summary', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [text('The parser: PARSER-DETAIL.')] } },
        { reply: { content: [text('SUMMARY-M: the person asked about the parser.')] } },
        { reply: { content: [text('Next answer.')] } },
      ],
    });
    await t.run('explain the parser');
    const compacted = await t.run('/compact keep the API names');
    expect(compacted.result.terminal.reason).toBe('completed');
    expect(compacted.result.text).toBe('Conversation compacted: 2 message(s) summarized.');
    expect(
      compacted.events.some(
        (e) => e.type === 'item' && e.item.kind === 'notice' && e.item.code === 'compact',
      ),
    ).toBe(true);

    const summaryRequest = t.api.requests[1]?.body ?? {};
    expect(lastUserText(summaryRequest)).toBe(`${COMPACT_INSTRUCTIONS}\n\nAlso: keep the API names`);
    expect(JSON.stringify(summaryRequest.messages)).toContain('PARSER-DETAIL');
    // Under the last turn's system prompt and tools: the conversation's own cached prefix.
    expect(JSON.stringify(summaryRequest.system)).toBe(JSON.stringify(t.api.requests[0]?.body.system));
    expect(JSON.stringify(summaryRequest.tools)).toBe(JSON.stringify(t.api.requests[0]?.body.tools));

    await t.run('next question');
    const after = JSON.stringify(t.api.requests[2]?.body.messages);
    expect(after).toContain('SUMMARY-M');
    expect(after).toContain('next question');
    expect(after).not.toContain('PARSER-DETAIL');
    expect(after).not.toContain('/compact');
    // The transcript keeps the old turn; a resumed session continues from the summary.
    const lines = t.lines().lines;
    expect(JSON.stringify(lines)).toContain('PARSER-DETAIL');
    expect(contextFromLines(lines).map((m) => m.id)).toEqual(t.engine.contextWindow.map((m) => m.id));
  });

  it('a failed summary leaves the conversation as it was and says so', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [text('First, KEEP-ME.')] } },
        { reply: { error: { status: 400, type: 'invalid_request_error', message: 'no summary today' } } },
        { reply: { content: [text('Still here.')] } },
      ],
    });
    await t.run('first');
    const failed = await t.run('/compact');
    expect(failed.result.terminal.reason).toBe('error');
    expect(failed.result.text).toMatch(/^Compaction failed: .*The conversation is unchanged\.$/);
    await t.run('second');
    expect(JSON.stringify(t.api.requests[2]?.body.messages)).toContain('KEEP-ME');
  });
});
