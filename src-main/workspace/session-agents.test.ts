import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '@shared/ipc/contract';
import { createCarapace } from '../compose';
import { silentLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { testCarapace } from '../test-support/carapace';
import type { EventHub } from './event-hub';

type Recorded = { [E in EventName]: { event: E; payload: EventPayload<E> } }[EventName];

function record(hub: EventHub) {
  const events: Recorded[] = [];
  hub.subscribe((event, payload) => events.push({ event, payload } as Recorded));
  return events;
}

/** Resolves when the session's turn has ended. */
function idle(events: Recorded[], sessionId: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const changes = events.filter(
        (e) => e.event === 'sessions.changed' && e.payload.session.id === sessionId,
      );
      const last = changes.at(-1);
      if (
        changes.length > 2 &&
        last?.event === 'sessions.changed' &&
        last.payload.session.activity === 'idle'
      )
        resolve();
      else setTimeout(check, 5);
    };
    check();
  });
}

const agentCall = (id: string, prompt: string) => ({
  type: 'tool_use' as const,
  id,
  name: 'Agent',
  input: { description: 'Look around', prompt, subagent_type: 'general-purpose' },
});

describe('a session’s sub-agents in the workspace', () => {
  it('streams a sub-agent’s work tagged with its id, shows its card and cost, and keeps it after a restart', async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'look' },
          reply: {
            content: [agentCall('tu1', 'CHILD prompt')],
            stop_reason: 'tool_use',
            usage: { input_tokens: 100, output_tokens: 10 },
          },
        },
        {
          when: { lastUserText: 'CHILD prompt' },
          reply: {
            content: [{ type: 'text', text: 'child says hello' }],
            chunkChars: 4,
            usage: { input_tokens: 400, output_tokens: 40 },
          },
        },
        {
          when: { lastUserText: 'child says' },
          reply: {
            content: [{ type: 'text', text: 'parent done' }],
            usage: { input_tokens: 200, output_tokens: 20 },
          },
        },
      ],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id);
    sessions.send(session.id, 'look around');
    await idle(events, session.id);

    const cards = events.flatMap((e) => (e.event === 'agents.changed' ? [e.payload.agent] : []));
    const childId = cards[0]?.id ?? '';
    expect(childId).toMatch(/^agent-/);
    expect(cards[0]).toMatchObject({
      sessionId: session.id,
      parentId: session.id,
      toolUseId: 'tu1',
      state: 'working',
    });
    expect(cards.at(-1)).toMatchObject({ id: childId, state: 'done', endReason: 'completed' });
    // The child's text streamed tagged with its own id; the parent's with the session's.
    const deltas = events.flatMap((e) => (e.event === 'stream.batch' ? e.payload.deltas : []));
    expect(
      deltas
        .filter((d) => d.agentId === childId)
        .map((d) => d.text)
        .join(''),
    ).toBe('child says hello');
    expect(
      deltas
        .filter((d) => d.agentId === session.id)
        .map((d) => d.text)
        .join(''),
    ).toBe('parent done');
    expect(events.some((e) => e.event === 'transcript.updated' && e.payload.agentId === childId)).toBe(true);

    // Its own cost on its card; the session's total includes it.
    const [card] = sessions.agents(session.id);
    const childCost = (400 * 3 + 40 * 15) / 1e6;
    expect(card?.costUsd).toBeCloseTo(childCost, 12);
    const summary = sessions.get(session.id).session;
    expect(summary.costUsd).toBeCloseTo(((100 + 200) * 3 + (10 + 20) * 15) / 1e6 + childCost, 12);
    const childItems = sessions.agentTranscript(session.id, childId);
    expect(JSON.stringify(childItems)).toContain('child says hello');
    expect(() => sessions.agentTranscript(session.id, 'agent-nope')).toThrow(/no agent/);

    await t.carapace.shutdown();
    const again = createCarapace({
      env: t.env,
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      version: 't',
    });
    again.services.workspace.open(t.project);
    const [back] = again.services.sessions.agents(session.id);
    expect(back).toMatchObject({
      id: childId,
      state: 'done',
      name: 'Look around',
      agentType: 'general-purpose',
    });
    expect(back?.costUsd).toBeCloseTo(childCost, 12);
    expect(again.services.sessions.get(session.id).session.costUsd).toBeCloseTo(summary.costUsd, 12);
    expect(JSON.stringify(again.services.sessions.agentTranscript(session.id, childId))).toContain(
      'child says hello',
    );
    await again.shutdown();
  });

  it('reports a broken agent file in the session and still offers the others', async () => {
    const t = await testCarapace({
      steps: [{ reply: { content: [{ type: 'text', text: 'ok' }] } }],
    });
    mkdirSync(path.join(t.project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'broken.md'),
      '---\nname: [unclosed\n---\nbody\n',
    );
    writeFileSync(
      path.join(t.project, '.claude', 'agents', 'good.md'),
      '---\nname: good-one\ndescription: a good agent\n---\nYou are good.\n',
    );
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id);
    sessions.send(session.id, 'hi');
    await idle(events, session.id);
    const notices = sessions
      .get(session.id)
      .transcript.filter((i) => i.kind === 'notice' && i.code === 'agent_file');
    expect(notices).toHaveLength(1);
    expect(JSON.stringify(notices)).toContain('broken.md');
    const agentTool = t.api.requests[0]?.body.tools?.find((x) => x.name === 'Agent') as
      { description?: string } | undefined;
    expect(agentTool?.description).toContain('good-one');
    expect(agentTool?.description).toContain('Explore');
  });

  it('keeps a session working in the background with its tab closed', async () => {
    const t = await testCarapace({
      steps: [
        {
          reply: {
            content: [{ type: 'text', text: 'background reply '.repeat(20) }],
            chunkChars: 5,
            delayMs: 5,
          },
        },
      ],
    });
    const events = record(t.carapace.hub);
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id);
    sessions.send(session.id, 'work on');
    const sent = workspace.setBackground(session.id, true);
    expect(sent.background).toBe(true);
    expect(workspace.tabs(project.id).open).not.toContain(session.id);
    await idle(events, session.id);
    const done = sessions.get(session.id).session;
    expect(done).toMatchObject({ activity: 'idle', background: true, messageCount: 2 });
    // Opening its tab brings it back.
    workspace.openTab(project.id, session.id);
    expect(sessions.get(session.id).session.background).toBe(false);
  });
});
