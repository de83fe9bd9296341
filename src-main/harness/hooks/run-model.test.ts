import { describe, expect, it } from 'vitest';
import { fillPrompt, parseVerdict, runModelHook } from './run-model';

describe('prompt and agent hook answers', () => {
  it('fills every $ARGUMENTS with the event JSON, or appends the JSON when there is none', () => {
    const input = { hook_event_name: 'Stop', note: 'a "quoted" $ARGUMENTS' };
    expect(fillPrompt('Check $ARGUMENTS and again $ARGUMENTS', input)).toBe(
      `Check ${JSON.stringify(input)} and again ${JSON.stringify(input)}`,
    );
    expect(fillPrompt('Is the work done?', input)).toBe(
      `Is the work done?\n\nEvent JSON:\n${JSON.stringify(input)}`,
    );
  });

  it('reads {ok, reason} from the answer and reports anything else as a problem', () => {
    expect(parseVerdict('{"ok": true}')).toEqual({ ok: true, reason: '' });
    expect(parseVerdict('Here you go:\n```json\n{"ok": false, "reason": "tests fail"}\n```')).toEqual({
      ok: false,
      reason: 'tests fail',
    });
    expect(parseVerdict('{"ok": false, "reason": {"nested": "}"}}')).toEqual({ ok: false, reason: '' });
    for (const bad of ['', 'yes', '{"ok": "false"}', '{ok: false}', '{"reason": "x"}', 'null'])
      expect(parseVerdict(bad), bad).toHaveProperty('problem');
  });

  it('without the session model a prompt hook is skipped, with the reason', async () => {
    const r = await runModelHook({ type: 'prompt', prompt: 'ok?' }, {}, { model: null, timeoutMs: 1000 });
    expect(r).toMatchObject({ status: 'skipped' });
    expect(r.problem).toMatch(/need the session's model/);
  });
});
