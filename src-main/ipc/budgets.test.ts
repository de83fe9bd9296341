import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWorking } from '@shared/domain/session';
import { budgetHandlers } from './budgets';
import { testCarapace } from '../test-support/carapace';
import { tempDir } from '../test-support/temp';
import { toolUse } from '../test-support/engine';

const MODEL = 'claude-sonnet-4-5';
const ctx = { transport: 'websocket' as const };

/*
 * Budgets in the app, through the composed Carapace and the scripted Messages API. Each reply asks for
 * another tool call and costs, by hand from the price table, 10,000 × $3/M + 1,000 × $15/M = $0.045.
 */
describe('budgets in the app', () => {
  it('pauses at the limit, asks, goes on after "allow more", ends on "stop", and withdraws on Esc', async () => {
    const t = await testCarapace({
      steps: [
        {
          times: true,
          reply: {
            content: [toolUse('Glob', { pattern: '*.nothing' })],
            stop_reason: 'tool_use',
            usage: { input_tokens: 10_000, output_tokens: 1_000 },
          },
        },
      ],
    });
    const s = t.carapace.services;
    const handlers = budgetHandlers(s);
    const events: [string, unknown][] = [];
    t.carapace.hub.subscribe((event, payload) => {
      if (event.startsWith('budgets.')) events.push([event, payload]);
    });
    // Other keys of the user's file survive budgets.set.
    writeFileSync(
      path.join(t.home, 'settings.json'),
      JSON.stringify({ model: MODEL, permissions: { allow: ['Glob'] } }),
    );
    s.settings.reload();
    const status = await handlers['budgets.set']({ sessionUsd: 0.09, dailyUsd: 50 }, ctx);
    expect(status.budgets).toEqual({ sessionUsd: 0.09, dailyUsd: 50 });
    await handlers['budgets.set']({ dailyUsd: null }, ctx);
    expect(JSON.parse(readFileSync(path.join(t.home, 'settings.json'), 'utf8'))).toEqual({
      model: MODEL,
      permissions: { allow: ['Glob'] },
      budgets: { sessionUsd: 0.09 },
    });

    const session = s.workspace.createSession(s.workspace.open(t.project).project.id, MODEL);
    const requests = () => t.api.requests.filter((r) => r.body.model === MODEL).length;
    s.sessions.send(session.id, 'go');
    // 45,000 then 90,000 = the limit: paused before the third request.
    await expect.poll(() => handlers['budgets.pending']({}, ctx), { timeout: 15_000 }).toHaveLength(1);
    const [first] = await handlers['budgets.pending']({}, ctx);
    expect(first).toMatchObject({
      sessionId: session.id,
      kind: 'session',
      limitMicros: 90_000,
      spentMicros: 90_000,
    });
    expect(requests()).toBe(2);
    expect(s.sessions.get(session.id).session.waitingForUser).toBe(true);

    // $0.05 more: 140,000. 135,000 goes on; 180,000 pauses again after the fourth request.
    await handlers['budgets.respond'](
      { requestId: first?.id ?? '', decision: 'allow_more', moreUsd: 0.05 },
      ctx,
    );
    await expect
      .poll(async () => (await handlers['budgets.pending']({}, ctx))[0]?.id ?? first?.id, { timeout: 15_000 })
      .not.toBe(first?.id);
    expect(requests()).toBe(4);
    const [second] = await handlers['budgets.pending']({}, ctx);
    expect(second).toMatchObject({ limitMicros: 140_000, spentMicros: 180_000 });

    await handlers['budgets.respond']({ requestId: second?.id ?? '', decision: 'stop' }, ctx);
    await expect
      .poll(() => isWorking(s.sessions.get(session.id).session.activity), { timeout: 15_000 })
      .toBe(false);
    expect(requests()).toBe(4);
    const transcript = s.sessions.get(session.id).transcript;
    expect(transcript.some((i) => i.kind === 'notice' && i.text.startsWith('Budget reached: stopped'))).toBe(
      true,
    );
    expect(
      transcript.some((i) => i.kind === 'notice' && i.level === 'warning' && i.text.includes('80%')),
    ).toBe(true);
    const lines = readFileSync(fileOf(t.home, session.id), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; event?: string })
      .filter((l) => l.type === 'budget')
      .map((l) => l.event);
    expect(lines).toEqual(['warning', 'paused', 'allowed', 'paused', 'stopped']);
    // The notices are saved too: they show again when the session is reopened.
    const saved = readFileSync(fileOf(t.home, session.id), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; item?: { kind: string; code?: string } })
      .filter((l) => l.type === 'item' && l.item?.kind === 'notice' && l.item.code === 'budget');
    expect(saved).toHaveLength(5);

    // A new message asks again; Esc while paused withdraws the question.
    s.sessions.send(session.id, 'again');
    await expect.poll(() => handlers['budgets.pending']({}, ctx), { timeout: 15_000 }).toHaveLength(1);
    expect(requests()).toBe(4);
    s.sessions.stop(session.id);
    await expect.poll(() => handlers['budgets.pending']({}, ctx), { timeout: 15_000 }).toHaveLength(0);
    expect(events.at(-1)).toEqual(['budgets.resolved', expect.objectContaining({ decision: 'withdrawn' })]);
    expect(events.filter(([e]) => e === 'budgets.warning')).toHaveLength(1);
  });

  it("refuses 'allow more' at a limit set by the managed policy, over IPC as FORBIDDEN, and changes nothing", async () => {
    const policyFile = path.join(tempDir('carapace-policy-'), 'managed-settings.json');
    writeFileSync(policyFile, JSON.stringify({ budgets: { sessionUsd: 0.09 } }));
    const t = await testCarapace(
      {
        steps: [
          {
            times: true,
            reply: {
              content: [toolUse('Glob', { pattern: '*.nothing' })],
              stop_reason: 'tool_use',
              usage: { input_tokens: 10_000, output_tokens: 1_000 },
            },
          },
        ],
      },
      { CARAPACE_MANAGED_SETTINGS: policyFile },
    );
    const s = t.carapace.services;
    writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify({ permissions: { allow: ['Glob'] } }));
    s.settings.reload();
    const session = s.workspace.createSession(s.workspace.open(t.project).project.id, MODEL);
    s.sessions.send(session.id, 'go');
    await expect.poll(() => s.budgets.list(), { timeout: 15_000 }).toHaveLength(1);
    const [request] = s.budgets.list();
    expect(request).toMatchObject({ limitMicros: 90_000, canAllowMore: false });
    const r = await t.carapace.router.dispatch(
      'budgets.respond',
      { requestId: request?.id ?? '', decision: 'allow_more', moreUsd: 5 },
      ctx,
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(s.budgets.list().map((p) => p.id)).toEqual([request?.id]);
    expect(s.sessions.get(session.id).session.waitingForUser).toBe(true);
    expect(
      await t.carapace.router.dispatch(
        'budgets.respond',
        { requestId: request?.id ?? '', decision: 'stop' },
        ctx,
      ),
    ).toMatchObject({ ok: true });
    await expect
      .poll(() => isWorking(s.sessions.get(session.id).session.activity), { timeout: 15_000 })
      .toBe(false);
    expect(t.api.requests.filter((q) => q.body.model === MODEL)).toHaveLength(2);
  });

  it('answers NOT_FOUND for an unknown project without writing the limits', async () => {
    const t = await testCarapace({ steps: [] });
    const r = await t.carapace.router.dispatch(
      'budgets.set',
      { projectId: 'no-such-project', dailyUsd: 999 },
      ctx,
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const file = path.join(t.home, 'settings.json');
    const budgets = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { budgets?: unknown }).budgets
      : undefined;
    expect(budgets).toBeUndefined();
  });
});

function fileOf(home: string, sessionId: string): string {
  const dir = path.join(home, 'projects');
  const slug = readdirSync(dir).find((d) => existsSync(path.join(dir, d, `${sessionId}.jsonl`)));
  return path.join(dir, slug ?? '', `${sessionId}.jsonl`);
}
