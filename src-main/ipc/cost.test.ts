import { describe, expect, it } from 'vitest';
import { CostReport, SessionCostDetail } from '@shared/domain/cost-report';
import { writeSession } from '../harness/cost/ledger/test-transcripts';
import { testCarapace } from '../test-support/carapace';
import { tempDir } from '../test-support/temp';

const ctx = { transport: 'websocket' as const };
const MODEL = 'claude-sonnet-4-5';

/** No Claude Code on the test machine's account: its folder is an empty temp one. */
const noClaude = () => ({ CLAUDE_CONFIG_DIR: tempDir('no-claude-') });

describe('cost.* over IPC', () => {
  it('cost.report answers the seeded figures; cost.session a session by member', async () => {
    const t = await testCarapace({ steps: [] }, noClaude());
    const project = t.carapace.services.workspace.open(t.project).project;
    writeSession({
      carapaceHome: t.home,
      projectPath: t.project,
      sessionId: 'seeded-1',
      title: 'Seeded',
      usages: [
        {
          apiId: 'm1',
          model: MODEL,
          tokens: { input: 10, output: 20 },
          costMicros: 1_234,
          turn: 1,
          at: '2026-05-01T12:00:00.000Z',
        },
        {
          apiId: 'm2',
          model: 'unknown-model',
          tokens: { input: 5 },
          costMicros: null,
          turn: 2,
          at: '2026-05-02T12:00:00.000Z',
        },
      ],
    });
    writeSession({
      carapaceHome: t.home,
      projectPath: '/elsewhere',
      sessionId: 'other-1',
      usages: [{ apiId: 'm3', model: MODEL, costMicros: 5_000, turn: 1, at: '2026-05-01T12:00:00.000Z' }],
    });
    const query = { from: '2026-04-30', to: '2026-05-03', sources: ['carapace'] };
    const mine = await t.carapace.router.dispatch(
      'cost.report',
      { ...query, scope: { kind: 'project', projectId: project.id } },
      ctx,
    );
    expect(mine.ok).toBe(true);
    const report = CostReport.parse(mine.ok ? mine.value : null);
    expect(report.total).toMatchObject({ costMicros: 1_234, records: 2, unpricedRecords: 1 });
    expect(report.days.map((d) => d.day)).toEqual(['2026-04-30', '2026-05-01', '2026-05-02', '2026-05-03']);
    expect(report.sessions).toMatchObject([
      { sessionId: 'seeded-1', title: 'Seeded', source: 'carapace', turns: 2 },
    ]);
    expect(report.claudeCode).toEqual({ available: false, enabled: false });
    const all = await t.carapace.router.dispatch('cost.report', { ...query, scope: { kind: 'all' } }, ctx);
    expect(CostReport.parse(all.ok ? all.value : null).total.costMicros).toBe(6_234);

    const detail = await t.carapace.router.dispatch('cost.session', { sessionId: 'seeded-1' }, ctx);
    expect(SessionCostDetail.parse(detail.ok ? detail.value : null).byTurn.map((x) => x.turn)).toEqual([
      1, 2,
    ]);
    const none = await t.carapace.router.dispatch('cost.session', { sessionId: 'never-ran' }, ctx);
    expect(SessionCostDetail.parse(none.ok ? none.value : null).total.records).toBe(0);
  });

  it('cost.export gives a table of the same report as a file', async () => {
    const t = await testCarapace({ steps: [] }, noClaude());
    writeSession({
      carapaceHome: t.home,
      projectPath: t.project,
      sessionId: 'seeded-1',
      title: 'Seeded',
      usages: [{ apiId: 'm1', model: MODEL, costMicros: 1_234_567, turn: 1, at: '2026-05-01T12:00:00.000Z' }],
    });
    const query = { scope: { kind: 'all' }, from: '2026-05-01', to: '2026-05-01', sources: ['carapace'] };
    const csv = await t.carapace.router.dispatch(
      'cost.export',
      { query, table: 'sessions', format: 'csv' },
      ctx,
    );
    expect(csv).toMatchObject({ ok: true, value: { fileName: expect.stringMatching(/\.csv$/) } });
    const text = csv.ok ? (csv.value as { text: string }).text : '';
    expect(text).toContain('Seeded');
    expect(text).toContain('1.234567');
    const bad = await t.carapace.router.dispatch('cost.export', { query, table: 'nope', format: 'csv' }, ctx);
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('refuses malformed queries with INVALID_INPUT', async () => {
    const t = await testCarapace({ steps: [] }, noClaude());
    const good = { scope: { kind: 'all' }, from: '2026-01-01', to: '2026-01-31', sources: ['carapace'] };
    const bad: unknown[] = [
      { ...good, from: '2026-1-1' },
      { ...good, sources: [] },
      { ...good, sources: ['elsewhere'] },
      { ...good, scope: { kind: 'project' } },
      { ...good, extra: true },
      { ...good, from: '2026-02-01' },
      { ...good, from: '1990-01-01' },
      'all',
    ];
    for (const input of bad) {
      const r = await t.carapace.router.dispatch('cost.report', input, ctx);
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
  });

  it("records a live session's usage and tells an open dashboard", async () => {
    const t = await testCarapace(
      {
        steps: [
          {
            reply: {
              content: [{ type: 'text', text: 'hi' }],
              usage: { input_tokens: 1_000, output_tokens: 100 },
            },
          },
        ],
      },
      noClaude(),
    );
    const s = t.carapace.services;
    const events: unknown[] = [];
    t.carapace.hub.subscribe((event, payload) => {
      if (event === 'cost.updated') events.push(payload);
    });
    const project = s.workspace.open(t.project).project;
    const session = s.workspace.createSession(project.id, MODEL);
    s.sessions.send(session.id, 'hello');
    await expect.poll(() => events, { timeout: 15_000 }).toEqual([{ projectId: project.id }]);
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    const r = await s.cost.report({
      scope: { kind: 'project', projectId: project.id },
      from: day,
      to: day,
      sources: ['carapace'],
    });
    // 1,000 × $3/M + 100 × $15/M, by hand.
    expect(r.total).toMatchObject({ records: 1, costMicros: 4_500 });
    expect(r.sessions[0]?.sessionId).toBe(session.id);
  });
});
