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
});
