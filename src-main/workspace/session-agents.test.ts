import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { EventName, EventPayload } from '@shared/ipc/contract';
import { createCarapace } from '../compose';
import { silentLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { testCarapace } from '../test-support/carapace';
import type { EventHub } from './event-hub';
import { MAX_SAVED_AGENT_BYTES } from './agent-tracker';

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
      homeDir: t.userHome,
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

/** The file called `name` somewhere under `dir`. */
function findFile(dir: string, name: string): string | null {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isFile() && e.name === name) return p;
    const found = e.isDirectory() ? findFile(p, name) : null;
    if (found) return found;
  }
  return null;
}

describe('a session folder with hostile sub-agent transcripts', () => {
  it('still opens: links, FIFOs, folders, huge files, forged ids and parent loops are skipped or untangled', async () => {
    const t = await testCarapace({ steps: [] });
    const { workspace } = t.carapace.services;
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id);
    await t.carapace.shutdown();

    const file = findFile(t.home, `${session.id}.jsonl`) ?? '';
    const folder = path.join(path.dirname(file), session.id, 'subagents');
    mkdirSync(folder, { recursive: true });
    const head = (agentId: string, parentId: string | null) =>
      `${JSON.stringify({
        type: 'session',
        version: 1,
        sessionId: session.id,
        projectPath: t.project,
        createdAt: '2025-01-01T00:00:00.000Z',
        model: 'claude-sonnet-4-5',
        agent: { agentId, parentId, agentType: 'general-purpose', name: agentId, toolUseId: 'tu' },
      })}\n`;
    const put = (name: string, text: string) => writeFileSync(path.join(folder, `${name}.jsonl`), text);
    put('agent-good', head('agent-good', session.id));
    // Parents that loop: itself, and two naming each other.
    put('agent-self', head('agent-self', 'agent-self'));
    put('agent-ping', head('agent-ping', 'agent-pong'));
    put('agent-pong', head('agent-pong', 'agent-ping'));
    // Ids that are not the file's: the session itself, and another agent.
    put('agent-forged', head(session.id, null));
    put('agent-thief', head('agent-good', session.id));
    put('agent-junk', '{not json\n');
    mkdirSync(path.join(folder, 'agent-folder.jsonl'));
    execFileSync('mkfifo', [path.join(folder, 'agent-fifo.jsonl')]);
    symlinkSync('/dev/zero', path.join(folder, 'agent-zero.jsonl'));
    symlinkSync(file, path.join(folder, 'agent-link.jsonl'));
    put('agent-huge', head('agent-huge', session.id));
    truncateSync(path.join(folder, 'agent-huge.jsonl'), MAX_SAVED_AGENT_BYTES + 1);

    const again = createCarapace({
      env: t.env,
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      version: 't',
      homeDir: t.userHome,
    });
    onTestFinished(() => again.shutdown());
    again.services.workspace.open(t.project);
    const { transcript } = again.services.sessions.get(session.id);
    const cards = again.services.sessions.agents(session.id);
    expect(cards.map((c) => c.id).sort()).toEqual(['agent-good', 'agent-ping', 'agent-pong', 'agent-self']);
    // Every card's parent chain ends at the session.
    const byId = new Map(cards.map((c) => [c.id, c]));
    for (const c of cards) {
      const seen = new Set<string>();
      let at = c.parentId;
      while (byId.has(at) && !seen.has(at)) {
        seen.add(at);
        at = byId.get(at)?.parentId ?? '';
      }
      expect(at).toBe(session.id);
    }
    expect(byId.get('agent-good')?.name).toBe('agent-good');
    const said = transcript
      .filter((i) => i.kind === 'notice' && i.code === 'agent_transcript')
      .map((i) => (i.kind === 'notice' ? i.text : ''))
      .join('\n');
    for (const name of [
      'agent-forged',
      'agent-thief',
      'agent-folder',
      'agent-fifo',
      'agent-zero',
      'agent-link',
      'agent-huge',
    ])
      expect(said).toContain(`${name}.jsonl`);
    expect(() => again.services.sessions.agentTranscript(session.id, 'agent-good')).not.toThrow();
  });
});
