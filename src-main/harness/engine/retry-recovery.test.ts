import { describe, expect, it } from 'vitest';
import { messageText, type MessageItem, type TranscriptItem } from '@shared/domain/messages';
import { testEngine, text } from '../../test-support/engine';
import { withoutCacheControl } from '../loop/request';
import { readTranscript, TranscriptWriter } from '../session/transcript-file';
import { INTERRUPTED_BY_EXIT, QueryEngine, type EngineEvent, type TurnResult } from './query-engine';
import { PARTIAL_FLUSH_MS } from './partial-reply';

async function drain(gen: AsyncGenerator<EngineEvent, TurnResult>): Promise<TurnResult> {
  for (;;) {
    const next = await gen.next();
    if (next.done) return next.value;
  }
}

const persons = (items: readonly TranscriptItem[]) =>
  items.filter((i) => i.kind === 'message' && i.origin === 'user');

/** The text of every user message a request carried (without the moving cache breakpoint). */
const userTexts = (body: unknown) =>
  (body as { messages: { role: string; content: unknown }[] }).messages
    .filter((m) => m.role === 'user')
    .map((m) => JSON.stringify(withoutCacheControl(m.content)));

describe('retry after a failed turn', () => {
  it('a turn that ran out of retries on 529 is asked again without repeating the person', async () => {
    const overloaded = { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } };
    const t = await testEngine(
      {
        steps: [{ reply: overloaded, times: 2 }, { reply: { content: [text('Here after all.')] } }],
      },
      { maxRetries: 1 },
    );
    const failed = await t.run('hello');
    expect(failed.result.error?.code).toBe('overloaded_error');
    expect(t.engine.canRetry).toBe(true);

    const result = await drain(t.engine.retry());
    expect(result.terminal.reason).toBe('completed');
    expect(result.text).toBe('Here after all.');
    // The person's message is in the transcript once, and the retried request carried it once.
    expect(persons(t.engine.items)).toHaveLength(1);
    expect(userTexts(t.api.requests.at(-1)?.body)).toEqual([
      JSON.stringify([{ type: 'text', text: 'hello' }]),
    ]);
    // Finished: nothing more to retry, and asking is a clear error.
    expect(t.engine.canRetry).toBe(false);
    expect(() => t.engine.retry()).toThrow(/nothing to retry/);
  });
});

describe('a reply the app died in', () => {
  it('is kept on disk as it streams and comes back interrupted, with Retry asking afresh', async () => {
    const t = await testEngine({
      steps: [
        {
          reply: {
            content: [text('The first half of the answer, and then the second half of it.')],
            chunkChars: 5,
            delayMs: 30,
          },
        },
        { reply: { content: [text('A whole answer.')] } },
      ],
    });
    // Read the reply up to some text, then stop reading without closing anything: a crash.
    const gen = t.engine.submit('explain');
    let shown = '';
    while (shown.length < 20) {
      const next = await gen.next();
      if (next.done) throw new Error('the turn ended before the crash');
      if (next.value.type === 'text_delta') shown += next.value.text;
    }
    await new Promise((r) => setTimeout(r, PARTIAL_FLUSH_MS + 150));
    const onDisk = readTranscript(t.file).lines;
    expect(onDisk.some((l) => l.type === 'partial')).toBe(true);
    expect(
      onDisk.some((l) => l.type === 'item' && l.item.kind === 'message' && l.item.role === 'assistant'),
    ).toBe(false);

    // The next run of the app opens the session from its file.
    const again = new QueryEngine({ ...t.options, writer: new TranscriptWriter(t.file) });
    again.resume(onDisk);
    const reply = again.items.find((i): i is MessageItem => i.kind === 'message' && i.role === 'assistant');
    expect(reply?.status).toBe('interrupted');
    expect(shown.startsWith(messageText(reply?.content ?? []))).toBe(true);
    expect(messageText(reply?.content ?? []).length).toBeGreaterThan(0);
    expect(again.items.at(-1)).toMatchObject({
      kind: 'notice',
      code: 'interrupted_by_exit',
      text: INTERRUPTED_BY_EXIT,
    });
    expect(again.canRetry).toBe(true);

    // (The crashed engine's generator is left as it is: closing it would save its reply, which a
    // dead process does not do.)
    const before = t.api.requests.length;
    const result = await drain(again.retry());
    expect(result.text).toBe('A whole answer.');
    expect(t.api.requests).toHaveLength(before + 1);
    // Asked afresh from the person's message: the half answer is not sent back as the model's own.
    const sent = t.api.requests.at(-1)?.body as { messages: { role: string }[] };
    expect(sent.messages.map((m) => m.role)).toEqual(['user']);
    expect(persons(again.items)).toHaveLength(1);
    await again.close();

    // Opened once more: the interrupted reply is there once, not recovered twice, and the context
    // (replayed from the file) still leaves it out.
    const third = new QueryEngine({ ...t.options, writer: new TranscriptWriter(t.file) });
    third.resume(readTranscript(t.file).lines);
    const replies = third.items.filter((i) => i.kind === 'message' && i.role === 'assistant');
    expect(replies.map((m) => (m as MessageItem).status)).toEqual(['interrupted', 'complete']);
    expect(third.items.filter((i) => i.kind === 'notice' && i.code === 'interrupted_by_exit')).toHaveLength(
      1,
    );
    expect(third.contextWindow.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(third.canRetry).toBe(false);
    await third.close();
  });

  it('a turn that ended normally leaves no partial reply and no "app closed" note on the next load', async () => {
    const t = await testEngine({ steps: [{ reply: { content: [text('Done.')], chunkChars: 2 } }] });
    await t.run('hi');
    const again = new QueryEngine({ ...t.options, writer: new TranscriptWriter(t.file) });
    again.resume(readTranscript(t.file).lines);
    expect(again.items.map((i) => i.kind)).toEqual(['message', 'message']);
    expect(again.canRetry).toBe(false);
    await again.close();
  });
});
