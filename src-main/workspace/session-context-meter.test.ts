import { describe, expect, it } from 'vitest';
import { isWorking, type SessionSummary } from '@shared/domain/session';
import { testCarapace } from '../test-support/carapace';

/** The status bar's context meter: what the window receives after a response reports its usage. */
describe('the session summary carries the context meter', () => {
  it('after a reply whose usage filled 42k of the window: the tokens, the window and the autocompact line', async () => {
    const usage = { input_tokens: 30_000, cache_read_input_tokens: 12_000, output_tokens: 100 };
    const t = await testCarapace({ steps: [{ reply: { content: [{ type: 'text', text: 'ok' }], usage } }] });
    const { workspace, sessions } = t.carapace.services;
    const sent: SessionSummary[] = [];
    t.carapace.hub.subscribe((event, payload) => {
      if (event === 'sessions.changed') sent.push((payload as { session: SessionSummary }).session);
    });
    const session = workspace.createSession(workspace.open(t.project).project.id);
    expect(sessions.get(session.id).session.context).toEqual({
      tokens: 0,
      window: 200_000,
      autocompactAt: 167_000,
    });
    sessions.send(session.id, 'hello');
    await expect
      .poll(() => !isWorking(sessions.get(session.id).session.activity), { timeout: 15_000 })
      .toBe(true);
    const last = sent.filter((s) => s.id === session.id).at(-1);
    // The response's whole usage (input, cache read, output); nothing was added after it.
    expect(last?.context).toEqual({ tokens: 42_100, window: 200_000, autocompactAt: 167_000 });
  });
});
