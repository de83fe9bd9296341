import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BudgetLine } from '../harness/cost/usage-line';
import { tempDir } from '../test-support/temp';
import { BudgetService } from './budget-service';
import { EventHub } from './event-hub';

// Sonnet 4.5 input is $3 per million tokens: every input token is exactly 3 micro-dollars.
const MODEL = 'claude-sonnet-4-5';
let n = 0;
const response = (inputTokens: number) => ({
  model: MODEL,
  apiId: `msg_${++n}`,
  usage: { inputTokens, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
});

function setup(settings: { user?: unknown; policy?: unknown }) {
  const root = tempDir();
  const policyFile = path.join(root, 'managed-settings.json');
  if (settings.user !== undefined)
    writeFileSync(path.join(root, 'settings.json'), JSON.stringify(settings.user));
  if (settings.policy !== undefined) writeFileSync(policyFile, JSON.stringify(settings.policy));
  const hub = new EventHub();
  const events: string[] = [];
  hub.subscribe((event) => {
    if (event.startsWith('budgets.')) events.push(event);
  });
  const service = new BudgetService({
    hub,
    locations: { home: root, policyFile },
    daySource: null,
    onWaitingChanged: () => undefined,
  });
  const lines: BudgetLine[] = [];
  const gate = service.gateFor({
    sessionId: 's1',
    projectPath: '/p',
    spentBefore: () => 0,
    log: (l) => lines.push(l),
    notice: () => undefined,
  });
  return { service, gate, events, lines, signal: new AbortController().signal };
}

describe('BudgetService', () => {
  it('two agents of a session at the limit together make one Inbox item; its answer reaches both', async () => {
    const { service, gate, events, signal } = setup({ user: { budgets: { sessionUsd: 0.3 } } });
    gate.recordUsage(response(100_000)); // $0.30
    const main = gate.beforeRequest(signal);
    const worker = gate.beforeRequest(signal);
    await expect.poll(() => service.list().length).toBeGreaterThan(0);
    for (const r of service.list()) service.respond({ requestId: r.id, decision: 'stop' });
    expect(await main).toMatchObject({ stop: 'session' });
    expect(await worker).toMatchObject({ stop: 'session' });
    expect(events.filter((e) => e === 'budgets.requested')).toHaveLength(1);
  });

  it("a limit set by the managed policy can only be stopped at: 'allow more' is refused and changes nothing", async () => {
    const { service, gate, lines, signal } = setup({
      user: { budgets: { sessionUsd: 5 } },
      policy: { budgets: { sessionUsd: 0.3 } },
    });
    gate.recordUsage(response(100_000)); // $0.30: the policy's limit
    const waiting = gate.beforeRequest(signal);
    await expect.poll(() => service.list().length).toBe(1);
    const [request] = service.list();
    expect(request).toMatchObject({ kind: 'session', limitMicros: 300_000, canAllowMore: false });
    const id = request?.id ?? '';
    expect(() => service.respond({ requestId: id, decision: 'allow_more', moreUsd: 10 })).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', message: expect.stringContaining('managed policy') }),
    );
    expect(service.list().map((r) => r.id)).toEqual([id]);
    expect(lines.map((l) => l.event)).toEqual(['warning', 'paused']);
    service.respond({ requestId: id, decision: 'stop' });
    expect(await waiting).toMatchObject({ stop: 'session' });
  });

  it("a limit of the person's own under the policy's can be raised, but never past the policy's", async () => {
    const { service, gate, signal } = setup({
      user: { budgets: { sessionUsd: 0.3 } },
      policy: { budgets: { sessionUsd: 0.6 } },
    });
    gate.recordUsage(response(100_000)); // $0.30: the person's limit
    const first = gate.beforeRequest(signal);
    await expect.poll(() => service.list().length).toBe(1);
    const [own] = service.list();
    expect(own).toMatchObject({ limitMicros: 300_000, canAllowMore: true });
    service.respond({ requestId: own?.id ?? '', decision: 'allow_more', moreUsd: 10 });
    expect(await first).toBe('go');
    gate.recordUsage(response(100_000)); // $0.60: the policy's limit, though $10.30 was allowed
    const second = gate.beforeRequest(signal);
    await expect.poll(() => service.list().length).toBe(1);
    const [policy] = service.list();
    expect(policy).toMatchObject({ limitMicros: 600_000, spentMicros: 600_000, canAllowMore: false });
    service.respond({ requestId: policy?.id ?? '', decision: 'stop' });
    expect(await second).toMatchObject({ stop: 'session' });
  });
});
