import { describe, expect, it } from 'vitest';
import { isWorking, type SessionSummary } from '@shared/domain/session';
import { testCarapace } from '../test-support/carapace';

/**
 * The summary's `canRetry` is what the window offers Retry from: it must agree with what
 * `sessions.retry` accepts, whatever the transcript's last notice looks like.
 */
async function afterOneTurn(scenario: Parameters<typeof testCarapace>[0]) {
  const t = await testCarapace(scenario);
  const { workspace, sessions } = t.carapace.services;
  const sent: SessionSummary[] = [];
  t.carapace.hub.subscribe((event, payload) => {
    if (event === 'sessions.changed') sent.push((payload as { session: SessionSummary }).session);
  });
  const session = workspace.createSession(workspace.open(t.project).project.id);
  sessions.send(session.id, 'hello');
  await expect
    .poll(() => !isWorking(sessions.get(session.id).session.activity), { timeout: 15_000 })
    .toBe(true);
  return { sessions, id: session.id, lastSent: sent.filter((s) => s.id === session.id).at(-1) };
}

describe('the session summary says whether Retry can work', () => {
  it('yes after an API error: the person’s message is still unanswered', async () => {
    const bad = { error: { status: 400, type: 'invalid_request_error', message: 'Bad request' } };
    const { sessions, id, lastSent } = await afterOneTurn({
      steps: [{ reply: bad }, { reply: { content: [{ type: 'text', text: 'ok' }] } }],
    });
    expect(lastSent?.canRetry).toBe(true);
    expect(sessions.get(id).session.canRetry).toBe(true);
    expect(sessions.retry(id)).toEqual({ retried: true });
  });

  it('no after the output limit stopped the reply: the error shows, but the last word is the model’s', async () => {
    const cut = {
      reply: { content: [{ type: 'text' as const, text: 'cut' }], stop_reason: 'max_tokens' as const },
    };
    const { sessions, id, lastSent } = await afterOneTurn({ steps: [cut, cut, cut, cut, cut] });
    const last = sessions.get(id).transcript.at(-1);
    expect(last).toMatchObject({ kind: 'notice', level: 'error' });
    expect(lastSent?.canRetry).toBe(false);
    expect(sessions.get(id).session.canRetry).toBe(false);
    expect(() => sessions.retry(id)).toThrow(/nothing to retry/);
  });

  it('no after a reply that finished', async () => {
    const { lastSent } = await afterOneTurn({
      steps: [{ reply: { content: [{ type: 'text', text: 'done' }] } }],
    });
    expect(lastSent?.canRetry).toBe(false);
  });
});
