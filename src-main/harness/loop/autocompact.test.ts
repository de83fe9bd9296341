import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text, toolUse } from '../../test-support/engine';
import { AutoCompact, contextTokens, MAX_CONSECUTIVE_FAILURES } from './autocompact';
import { COMPACT_INSTRUCTIONS } from './nudges';
import { withoutCacheControl } from './request';

/** A response that filled the context: 150k fresh input and 20k read from the cache (170k ≥ 167k). */
const FULL = { input_tokens: 150_000, cache_read_input_tokens: 20_000, output_tokens: 50 };
const SMALL = { input_tokens: 1_000, output_tokens: 20 };

type Body = { messages?: { role: string; content: unknown }[] };
const lastUserText = (body: Body) => {
  const m = body.messages?.at(-1);
  return Array.isArray(m?.content)
    ? (m.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('')
    : String(m?.content);
};
const isSummaryRequest = (body: Body) => lastUserText(body).endsWith(COMPACT_INSTRUCTIONS);

describe('autocompact', () => {
  it('the default line is 167,000 of a 200k window; the estimate starts from the last response', () => {
    expect(new AutoCompact().threshold('claude-sonnet-4-5')).toBe(167_000);
    expect(new AutoCompact().threshold('claude-sonnet-4-5[1m]')).toBe(967_000);
    expect(new AutoCompact({ thresholdPct: 50 }).threshold('claude-opus-4-5')).toBe(100_000);
    expect(
      contextTokens([
        {
          kind: 'message',
          id: 'a',
          role: 'assistant',
          content: [{ type: 'text', text: 'x' }],
          createdAt: '',
          status: 'complete',
          usage: { inputTokens: 10, outputTokens: 5, cacheCreationInputTokens: 3, cacheReadInputTokens: 2 },
        },
        {
          kind: 'message',
          id: 'u',
          role: 'user',
          content: [{ type: 'text', text: 'y'.repeat(400) }],
          createdAt: '',
          status: 'complete',
        },
      ]),
    ).toBe(20 + Math.ceil(JSON.stringify([{ type: 'text', text: 'y'.repeat(400) }]).length / 4));
  });

  it('fires past the threshold: the next request carries the summary and the new prompt, not the old turns', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [text('First answer, OLD-DETAIL.')], usage: FULL } },
        { reply: { content: [text('SUMMARY: the person asked a first question.')], usage: SMALL } },
        { reply: { content: [text('Second answer.')], usage: SMALL } },
        { reply: { content: [text('Third answer.')], usage: SMALL } },
      ],
    });
    await t.run('first question');
    const second = await t.run('second question');
    expect(second.result.terminal.reason).toBe('completed');
    expect(second.result.text).toBe('Second answer.');

    const bodies = t.api.requests.map((r) => r.body);
    expect(isSummaryRequest(bodies[1] ?? {})).toBe(true);
    // The summary request carried the old turn, under the turn's own system prompt and tools (its
    // prefix is the conversation's, read from the cache; and the API wants tools with tool blocks).
    expect(JSON.stringify(bodies[1]?.messages)).toContain('OLD-DETAIL');
    expect(JSON.stringify(bodies[1]?.system)).toBe(JSON.stringify(bodies[0]?.system));
    expect(JSON.stringify(bodies[1]?.tools)).toBe(JSON.stringify(bodies[0]?.tools));
    // Its messages repeat the first request's, then ask for the summary.
    const first = JSON.stringify(withoutCacheControl(bodies[0]?.messages));
    expect(JSON.stringify(withoutCacheControl(bodies[1]?.messages?.slice(0, 1)))).toBe(first);
    // The turn's request after it holds the summary instead.
    const after = JSON.stringify(bodies[2]?.messages);
    expect(after).toContain('SUMMARY: the person asked a first question.');
    expect(after).toContain('second question');
    expect(after).not.toContain('OLD-DETAIL');

    // Reported: the compaction event with its summary, a note, and the context line for resume.
    const compaction = second.events.find((e) => e.type === 'compaction');
    expect(compaction).toMatchObject({ ok: true, trigger: 'auto', breakerOpen: false });
    expect(JSON.stringify(compaction)).toContain('SUMMARY: the person asked');
    expect(
      second.events.some(
        (e) => e.type === 'item' && e.item.kind === 'notice' && e.item.code === 'autocompact',
      ),
    ).toBe(true);
    expect(t.lines().lines.some((l) => l.type === 'context' && l.how === 'compact')).toBe(true);
    // The summary call's usage is counted as a compaction.
    expect(second.events.some((e) => e.type === 'usage' && e.purpose === 'compact')).toBe(true);

    // The meter counts from the last response (1,020 tokens) plus what came after it.
    const meter = t.engine.contextMeter;
    expect(meter.window).toBe(200_000);
    expect(meter.autocompactAt).toBe(167_000);
    expect(meter.tokens).toBeGreaterThanOrEqual(1_020);
    expect(meter.tokens).toBeLessThan(2_000);

    // Below the line again: the third turn makes no summary call.
    await t.run('third question');
    expect(t.api.requests).toHaveLength(4);
    expect(isSummaryRequest(t.api.requests[3]?.body ?? {})).toBe(false);
  });

  it('compacts in the middle of a long turn, keeping the last tool call with its result', async () => {
    const t = await testEngine({
      steps: [
        {
          reply: {
            content: [text('EARLY-REASONING'), toolUse('Read', { file_path: 'a.txt' })],
            stop_reason: 'tool_use',
            usage: FULL,
          },
        },
        { reply: { content: [text('SUMMARY: reading a.txt for the person.')], usage: SMALL } },
        { reply: { content: [text('It says hello.')], usage: SMALL } },
      ],
    });
    writeFileSync(path.join(t.project, 'a.txt'), 'hello\n');
    const { result } = await t.run('what does a.txt say?');
    expect(result.terminal.reason).toBe('completed');
    expect(isSummaryRequest(t.api.requests[1]?.body ?? {})).toBe(true);
    // The history has a tool call: the summary request defines the tools (the API requires it).
    expect(t.api.requests[1]?.body.tools?.map((tool) => tool.name)).toContain('Read');
    const after = t.api.requests[2]?.body.messages ?? [];
    // Summary first, then the assistant's tool call and its result, so no result is orphaned.
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(after[0])).toContain('SUMMARY: reading a.txt');
    expect(JSON.stringify(after[2])).toContain('hello');
  });

  it('three failed summaries in a row open the circuit breaker: no fourth attempt, the session goes on', async () => {
    const t = await testEngine({
      steps: [
        // Every summary request fails (so a fourth attempt would be seen and answered too).
        {
          when: { lastUserText: COMPACT_INSTRUCTIONS },
          times: true,
          reply: { error: { status: 400, type: 'invalid_request_error', message: 'summary refused' } },
        },
        // Every turn's own request answers with a context still past the line.
        { times: true, reply: { content: [text('Answered.')], usage: FULL } },
      ],
    });
    const notes: string[] = [];
    for (const prompt of ['one', 'two', 'three', 'four', 'five', 'six']) {
      const { result, events } = await t.run(prompt);
      // Each turn completes: a failed summary never fails the turn.
      expect(result.terminal.reason).toBe('completed');
      expect(result.text).toBe('Answered.');
      for (const e of events)
        if (e.type === 'item' && e.item.kind === 'notice' && e.item.code?.startsWith('autocompact'))
          notes.push(e.item.code);
    }
    const summaries = t.api.requests.filter((r) => isSummaryRequest(r.body));
    expect(summaries).toHaveLength(MAX_CONSECUTIVE_FAILURES);
    // Six turns' own requests, plus the three attempts (turns two to four).
    expect(t.api.requests).toHaveLength(6 + MAX_CONSECUTIVE_FAILURES);
    expect(notes).toEqual(['autocompact_failed', 'autocompact_failed', 'autocompact_off']);
    // The meter shows no autocompact line any more.
    expect(t.engine.contextMeter.autocompactAt).toBeNull();
    expect(t.engine.contextMeter.tokens).toBeGreaterThanOrEqual(170_000);
  });

  it('past the line with nothing older than the request (one huge prompt): no attempt, no note', async () => {
    const t = await testEngine(
      { steps: [{ reply: { content: [text('Read it all.')], usage: SMALL } }] },
      { compaction: { autoCompact: { thresholdPct: 0.001 } } },
    );
    const { result, events } = await t.run('a very long pasted prompt');
    expect(result.terminal.reason).toBe('completed');
    expect(t.api.requests).toHaveLength(1);
    expect(events.some((e) => e.type === 'compaction')).toBe(false);
  });
});
