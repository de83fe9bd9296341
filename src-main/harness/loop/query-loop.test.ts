import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageText, type MessageItem } from '@shared/domain/messages';
import { testEngine, text, toolUse } from '../../test-support/engine';
import { ESCALATED_MAX_OUTPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS } from './query-loop';
import { COMPACT_INSTRUCTIONS, RESUME_AFTER_OUTPUT_LIMIT } from './nudges';

const PTL = {
  error: {
    status: 400,
    type: 'invalid_request_error',
    message: 'prompt is too long: 250000 tokens > 200000 maximum',
  },
};
const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });
const lastUserText = (body: { messages?: { role: string; content: unknown }[] }) => {
  const m = body.messages?.at(-1);
  return Array.isArray(m?.content)
    ? (m.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('')
    : String(m?.content);
};

describe('queryLoop transitions and terminals, through the real SDK', () => {
  it('next_turn: runs a tool, feeds the result back, then completes', async () => {
    const t = await testEngine({
      steps: [
        {
          reply: {
            content: [text('Reading.'), toolUse('Read', { file_path: 'notes.txt' })],
            stop_reason: 'tool_use',
          },
        },
        { reply: { content: [text('It says hello.')] } },
      ],
    });
    writeFileSync(path.join(t.project, 'notes.txt'), 'hello\n');
    const { result, transitions } = await t.run('what does notes.txt say?');
    expect(transitions).toEqual(['next_turn']);
    expect(result.terminal.reason).toBe('completed');
    expect(result.text).toBe('It says hello.');
    // Tools went to the API as JSON Schema generated from their zod input schemas.
    const read = t.api.requests[0]?.body.tools?.find((tool) => tool.name === 'Read') as
      | { input_schema?: { type: string; properties: Record<string, unknown>; required: string[] } }
      | undefined;
    expect(read?.input_schema).toMatchObject({ type: 'object', required: ['file_path'] });
    expect(Object.keys(read?.input_schema?.properties ?? {})).toEqual(['file_path', 'offset', 'limit']);
    const second = t.api.requests[1]?.body.messages ?? [];
    expect(second.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', content: '     1\thello' }],
    });
  });

  it('prompt too long: collapse drain, then reactive compact, then success — the error never surfaces', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [toolUse('Read', { file_path: 'a.txt' })], stop_reason: 'tool_use' } },
        { reply: { content: [toolUse('Read', { file_path: 'b.txt' })], stop_reason: 'tool_use' } },
        { reply: { content: [text('Both read.')] } },
        { reply: PTL },
        { reply: PTL },
        { reply: { content: [text('The user read a.txt and b.txt; next: answer the follow-up.')] } },
        { reply: { content: [text('Recovered answer.')] } },
      ],
    });
    writeFileSync(path.join(t.project, 'a.txt'), 'AAA\n');
    writeFileSync(path.join(t.project, 'b.txt'), 'BBB\n');
    await t.run('read both');
    const { result, transitions, events } = await t.run('now the follow-up');
    expect(transitions).toEqual(['collapse_drain_retry', 'reactive_compact_retry']);
    expect(result.terminal.reason).toBe('completed');
    expect(result.text).toBe('Recovered answer.');
    expect(events.some((e) => e.type === 'error')).toBe(false);
    // The drain folded the oldest tool result; the compaction request asked for a summary.
    expect(JSON.stringify(t.api.requests[4]?.body.messages)).toContain('folded away');
    expect(lastUserText(t.api.requests[5]?.body ?? {})).toBe(COMPACT_INSTRUCTIONS);
    // After compaction: the summary, then the latest request verbatim.
    const after = t.api.requests[6]?.body.messages ?? [];
    expect(JSON.stringify(after[0])).toContain('The user read a.txt and b.txt');
    expect(JSON.stringify(after)).toContain('now the follow-up');
    expect(JSON.stringify(after)).not.toContain('AAA');
    // A resumed engine continues from the compacted context, not the full history.
    expect(t.lines().lines.some((l) => l.type === 'context' && l.how === 'compact')).toBe(true);
  });

  it('prompt too long twice: after one compaction the error surfaces as prompt_too_long', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [text('First answer.')] } },
        { reply: PTL },
        { reply: { content: [text('summary')] } },
        { reply: PTL },
      ],
    });
    await t.run('first');
    const { result, transitions, events } = await t.run('second');
    expect(transitions).toEqual(['reactive_compact_retry']);
    expect(result.terminal.reason).toBe('prompt_too_long');
    expect(result.error?.message).toMatch(/prompt is too long/);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('max_tokens: escalates the output limit once, then nudges the model to resume', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [text('Part one, cut')], stop_reason: 'max_tokens' } },
        { reply: { content: [text('Part one, longer, still cut')], stop_reason: 'max_tokens' } },
        { reply: { content: [text(' — and the end.')] } },
      ],
    });
    const { result, transitions, events } = await t.run('write a lot');
    expect(transitions).toEqual(['max_output_tokens_escalate', 'max_output_tokens_recovery']);
    expect(result.terminal.reason).toBe('completed');
    expect(t.api.requests.map((r) => r.body.max_tokens)).toEqual([
      DEFAULT_MAX_OUTPUT_TOKENS,
      ESCALATED_MAX_OUTPUT_TOKENS,
      ESCALATED_MAX_OUTPUT_TOKENS,
    ]);
    expect(lastUserText(t.api.requests[2]?.body ?? {})).toBe(RESUME_AFTER_OUTPUT_LIMIT);
    // The first, cut-off reply was withdrawn; the second is kept.
    const first = events.find((e) => e.type === 'assistant_start');
    expect(events).toContainEqual({
      type: 'tombstone',
      itemId: first?.type === 'assistant_start' ? first.itemId : '',
    });
    const kept = events.flatMap((e) => (e.type === 'assistant' ? [messageText(e.item.content)] : []));
    expect(kept).toEqual(['Part one, longer, still cut', ' — and the end.']);
  });

  it('max_tokens again and again: three nudges, then the error is released', async () => {
    const cut = { reply: { content: [text('cut')], stop_reason: 'max_tokens' as const } };
    const t = await testEngine({ steps: [cut, cut, cut, cut, cut] });
    const { result, transitions } = await t.run('endless');
    expect(transitions).toEqual([
      'max_output_tokens_escalate',
      'max_output_tokens_recovery',
      'max_output_tokens_recovery',
      'max_output_tokens_recovery',
    ]);
    expect(result.terminal.reason).toBe('error');
    expect(result.error?.code).toBe('max_output_tokens');
  });

  it('token budget: continues while it is unspent, and stops after 3 continuations that add under 500 tokens', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [text('Big first step.')], usage: usage(100, 1200) } },
        { reply: { content: [text('small')], usage: usage(100, 120) } },
        { reply: { content: [text('small')], usage: usage(100, 90) } },
        { reply: { content: [text('small')], usage: usage(100, 30) } },
        { reply: { content: [text('never asked for')] } },
      ],
    });
    const { result, transitions } = await t.run('work hard', { tokenBudget: 50_000 });
    expect(transitions).toEqual([
      'token_budget_continuation',
      'token_budget_continuation',
      'token_budget_continuation',
    ]);
    expect(result.terminal).toMatchObject({
      reason: 'completed',
      detail: expect.stringContaining('under 500 tokens'),
    });
    expect(t.api.requests).toHaveLength(4);
    expect(lastUserText(t.api.requests[1]?.body ?? {})).toContain('1,200 of the 50,000 output tokens');
  });

  it('token budget: a continuation that makes real progress resets the streak', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [text('a')], usage: usage(1, 100) } },
        { reply: { content: [text('b')], usage: usage(1, 100) } },
        { reply: { content: [text('c')], usage: usage(1, 900) } },
        { reply: { content: [text('d')], usage: usage(1, 100) } },
        { reply: { content: [text('e')], usage: usage(1, 100) } },
        { reply: { content: [text('f')], usage: usage(1, 100) } },
      ],
    });
    const { transitions } = await t.run('go', { tokenBudget: 100_000 });
    expect(transitions).toHaveLength(5);
    expect(t.api.requests).toHaveLength(6);
  });

  it('529 overload: retries, then falls back to the fallback model, withdrawing what the failed attempt showed', async () => {
    const overloaded = { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } };
    const t = await testEngine(
      {
        steps: [
          {
            reply: {
              content: [text('Starting on the primary model…')],
              chunkChars: 5,
              errorEvent: { afterEvents: 5, type: 'overloaded_error', message: 'Overloaded' },
            },
          },
          { reply: overloaded },
          { reply: overloaded },
          { when: { model: 'claude-haiku-4-5' }, reply: { content: [text('Answer from the fallback.')] } },
        ],
      },
      { fallbackModel: 'claude-haiku-4-5' },
    );
    const { result, events } = await t.run('hello');
    expect(result.terminal.reason).toBe('completed');
    const firstStart = events.find((e) => e.type === 'assistant_start');
    expect(events).toContainEqual({
      type: 'tombstone',
      itemId: firstStart?.type === 'assistant_start' ? firstStart.itemId : 'none',
    });
    expect(events).toContainEqual({ type: 'fallback', from: 'claude-sonnet-4-5', to: 'claude-haiku-4-5' });
    expect(t.api.requests.map((r) => r.body.model)).toEqual([
      'claude-sonnet-4-5',
      'claude-sonnet-4-5',
      'claude-sonnet-4-5',
      'claude-haiku-4-5',
    ]);
    expect(t.delays).toHaveLength(2);
    const kept = events.flatMap((e) => (e.type === 'assistant' ? [e.item] : []));
    expect(kept.map((i) => [i.model, messageText(i.content)])).toEqual([
      ['claude-haiku-4-5', 'Answer from the fallback.'],
    ]);
    // The withdrawn partial never reached the transcript on disk.
    expect(JSON.stringify(t.lines().lines)).not.toContain('Starting on the primary model');
  });

  it('429: waits as long as retry-after says, then succeeds; 401 and 400 are not retried', async () => {
    const t = await testEngine({
      steps: [
        {
          reply: {
            error: {
              status: 429,
              type: 'rate_limit_error',
              message: 'slow down',
              headers: { 'retry-after': '2' },
            },
          },
        },
        { reply: { error: { status: 503, type: 'api_error', message: 'unavailable' } } },
        { reply: { content: [text('made it')] } },
        { reply: { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } } },
        { reply: { error: { status: 400, type: 'invalid_request_error', message: 'messages: bad' } } },
      ],
    });
    const ok = await t.run('one');
    expect(ok.result.text).toBe('made it');
    expect(t.delays[0]).toBe(2000);
    // Without retry-after: exponential backoff with jitter, 0.5 s × 2^attempt, up to 25 % less.
    expect(t.delays[1]).toBeGreaterThanOrEqual(750);
    expect(t.delays[1]).toBeLessThanOrEqual(1000);
    const retries = ok.events.flatMap((e) => (e.type === 'retry' ? [e.error.code] : []));
    expect(retries).toEqual(['rate_limit_error', 'api_error']);

    const denied = await t.run('two');
    expect(denied.result.terminal.reason).toBe('error');
    expect(denied.result.error?.code).toBe('authentication_error');
    const bad = await t.run('three');
    expect(bad.result.error?.code).toBe('invalid_request_error');
    expect(t.api.requests).toHaveLength(5);
  });

  it('stop_hook_blocking: a Stop hook that objects sends the model back to work', async () => {
    let calls = 0;
    const t = await testEngine(
      {
        steps: [
          { reply: { content: [text('Done, I think.')] } },
          { reply: { content: [text('Now really done: tests pass.')] } },
        ],
      },
      { onStop: () => Promise.resolve(calls++ === 0 ? 'the tests were not run' : null) },
    );
    const { result, transitions } = await t.run('fix it');
    expect(transitions).toEqual(['stop_hook_blocking']);
    expect(result.text).toBe('Now really done: tests pass.');
    expect(lastUserText(t.api.requests[1]?.body ?? {})).toContain('the tests were not run');
  });

  it('max_turns: stops after the allowed number of tool rounds', async () => {
    const t = await testEngine(
      {
        steps: [
          { times: true, reply: { content: [toolUse('Glob', { pattern: '*' })], stop_reason: 'tool_use' } },
        ],
      },
      { maxTurns: 2 },
    );
    const { result, transitions } = await t.run('loop forever');
    expect(transitions).toEqual(['next_turn']);
    expect(result.terminal.reason).toBe('max_turns');
    expect(t.api.requests).toHaveLength(2);
  });

  it('aborted mid-stream: keeps the partial reply as interrupted and stops at once', async () => {
    const t = await testEngine({
      steps: [{ reply: { content: [text('x'.repeat(2000))], chunkChars: 10, delayMs: 5 } }],
    });
    const abort = new AbortController();
    let deltas = 0;
    const { result } = await t.run('long', { signal: abort.signal }, (e) => {
      if (e.type === 'text_delta' && ++deltas === 5) abort.abort();
    });
    expect(result.terminal.reason).toBe('aborted');
    const saved = t
      .lines()
      .lines.flatMap((l) =>
        l.type === 'item' && l.item.kind === 'message' && l.item.role === 'assistant' ? [l.item] : [],
      );
    expect(saved).toHaveLength(1);
    expect(saved[0]?.status).toBe('interrupted');
    expect(messageText(saved[0]?.content ?? []).length).toBeGreaterThan(0);
  });

  it('aborted during a tool: the tool is killed and gets a result saying it was interrupted', async () => {
    const t = await testEngine({
      steps: [{ reply: { content: [toolUse('Bash', { command: 'sleep 30' })], stop_reason: 'tool_use' } }],
    });
    const abort = new AbortController();
    const { result } = await t.run('wait', { signal: abort.signal }, (e) => {
      if (e.type === 'tool_start') setTimeout(() => abort.abort(), 100);
    });
    expect(result.terminal.reason).toBe('aborted');
    const window = t.engine.contextWindow;
    const results = window.flatMap((m: MessageItem) => m.content.filter((b) => b.type === 'tool_result'));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ is_error: true, content: expect.stringContaining('Interrupted') });
    expect(t.api.requests).toHaveLength(1);
  });
});

describe('closing the engine generator', () => {
  it('.return() mid-tool aborts the request and the tools and leaves a consistent transcript', async () => {
    const t = await testEngine({
      steps: [
        {
          reply: {
            content: [text('Running it.'), toolUse('Bash', { command: 'sleep 30' })],
            stop_reason: 'tool_use',
          },
        },
      ],
    });
    const gen = t.engine.submit('run the long thing');
    for (;;) {
      const next = await gen.next();
      if (next.done) throw new Error('ended before the tool started');
      if (next.value.type === 'tool_start') break;
    }
    const started = Date.now();
    await gen.return(undefined as never);
    // The sleep was killed, not waited for.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(t.engine.busy).toBe(false);
    const items = t
      .lines()
      .lines.flatMap((l) => (l.type === 'item' && l.item.kind === 'message' ? [l.item] : []));
    const uses = items.flatMap((m) => m.content.filter((b) => b.type === 'tool_use'));
    const results = items.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
    expect(uses).toHaveLength(1);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ is_error: true });
    // The next turn works on the same engine.
    t.api.setScenario({ steps: [{ reply: { content: [text('fresh start')] } }] });
    const next = await t.run('again');
    expect(next.result.text).toBe('fresh start');
    const sent = t.api.requests.at(-1)?.body.messages ?? [];
    expect(JSON.stringify(sent)).toContain('tool_result');
  });
});
