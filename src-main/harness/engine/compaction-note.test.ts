import { describe, expect, it } from 'vitest';
import type { NoticeItem, TranscriptItem } from '@shared/domain/messages';
import { testEngine, text } from '../../test-support/engine';
import { COMPACT_INSTRUCTIONS } from '../loop/nudges';

/** A response that filled the context past the autocompact line (170k ≥ 167k). */
const FULL = { input_tokens: 150_000, cache_read_input_tokens: 20_000, output_tokens: 50 };
const SMALL = { input_tokens: 1_000, output_tokens: 20 };

const notes = (events: readonly { type: string; item?: TranscriptItem }[]): NoticeItem[] =>
  events.flatMap((e) => (e.item?.kind === 'notice' && e.item.compaction ? [e.item] : []));

/** The transcript's compaction note carries what the window expands it to. */
describe('the compaction note', () => {
  it('an automatic compaction: trigger, how many messages were summarized, and the summary text', async () => {
    const t = await testEngine({
      steps: [
        { reply: { content: [text('First answer.')], usage: FULL } },
        { reply: { content: [text('SUMMARY: the person asked a first question.')], usage: SMALL } },
        { reply: { content: [text('Second answer.')], usage: SMALL } },
      ],
    });
    await t.run('first question');
    const { events } = await t.run('second question');
    const [note] = notes(events);
    expect(note?.compaction).toMatchObject({ trigger: 'auto', ok: true, breakerOpen: false });
    expect(note?.compaction?.summarized).toBeGreaterThan(0);
    expect(note?.compaction?.summary).toContain('SUMMARY: the person asked a first question.');
    // Kept in the transcript: the note reads the same when the session is opened again.
    expect(t.engine.items.find((i) => i.id === note?.id)).toEqual(note);
  });

  it('the third failure in a row says the breaker is open', async () => {
    const t = await testEngine({
      steps: [
        {
          when: { lastUserText: COMPACT_INSTRUCTIONS },
          times: true,
          reply: { error: { status: 400, type: 'invalid_request_error', message: 'summary refused' } },
        },
        { times: true, reply: { content: [text('Answered.')], usage: FULL } },
      ],
    });
    const seen: NoticeItem[] = [];
    for (const prompt of ['one', 'two', 'three', 'four']) seen.push(...notes((await t.run(prompt)).events));
    expect(seen.map((n) => n.compaction)).toEqual([
      { trigger: 'auto', ok: false, breakerOpen: false, summarized: null, summary: null },
      { trigger: 'auto', ok: false, breakerOpen: false, summarized: null, summary: null },
      { trigger: 'auto', ok: false, breakerOpen: true, summarized: null, summary: null },
    ]);
  });
});
