import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCarapace } from '../test-support/carapace';
import { tempDir } from '../test-support/temp';
import { dataPaths } from '../platform/paths';

describe('WorkspaceService.createSession', () => {
  it('returns a session that was saved even when its tab cannot be saved; the tab is kept in memory', async () => {
    const t = await testCarapace();
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    // workspace.json cannot be replaced (a folder stands where the file goes).
    mkdirSync(path.join(dataPaths(t.home).projectDir(project.id), 'workspace.json'), { recursive: true });
    const session = workspace.createSession(project.id);
    expect(sessions.list(project.id).map((s) => s.id)).toContain(session.id);
    expect(workspace.tabs(project.id)).toEqual({ open: [session.id], active: session.id });
  });
});

describe('attention across open projects', () => {
  const touch = (id: string, file: string) => ({
    reply: {
      content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command: `touch ${file}` } }],
      stop_reason: 'tool_use' as const,
    },
  });

  it('lists every project opened in this run with its sessions, and routes an answer to the session that asked', async () => {
    const t = await testCarapace({
      steps: [
        { when: { lastUserText: 'write in b' }, ...touch('tb', 'b.txt') },
        { when: { lastUserText: 'write in a' }, ...touch('ta', 'a.txt') },
        { times: true, reply: { content: [{ type: 'text', text: 'Done.' }] } },
      ],
    });
    const { workspace, sessions, broker, router } = { ...t.carapace.services, router: t.carapace.router };
    const other = tempDir('carapace-project-b-');
    const a = workspace.open(t.project).project;
    const b = workspace.open(other).project;
    const inA = workspace.createSession(a.id);
    const inB = workspace.createSession(b.id);
    // The window now shows B; A was opened earlier in the run and is still watched.
    expect(workspace.openProjects().map((p) => [p.project.id, p.sessions.map((s) => s.id)])).toEqual([
      [a.id, [inA.id]],
      [b.id, [inB.id]],
    ]);

    sessions.send(inA.id, 'write in a');
    sessions.send(inB.id, 'write in b');
    await expect.poll(() => broker.list().length, { timeout: 15_000 }).toBe(2);
    const fromB = broker.list().find((r) => r.sessionId === inB.id);
    expect(fromB?.summary).toContain('b.txt');

    // Answered through the contract, as the Inbox does: only B's session goes on.
    const ctx = { transport: 'websocket' as const };
    expect(
      await router.dispatch('permissions.respond', { requestId: fromB?.id, decision: 'allow_once' }, ctx),
    ).toEqual({ ok: true, value: { ok: true } });
    await expect.poll(() => sessions.get(inB.id).session.activity, { timeout: 15_000 }).toBe('idle');
    expect(existsSync(path.join(other, 'b.txt'))).toBe(true);
    expect(existsSync(path.join(t.project, 'a.txt'))).toBe(false);
    expect(broker.list().map((r) => r.sessionId)).toEqual([inA.id]);
    expect(sessions.get(inA.id).session.waitingForUser).toBe(true);

    // A request already answered is refused with a clear error, not routed anywhere else.
    expect(
      await router.dispatch('permissions.respond', { requestId: fromB?.id, decision: 'deny' }, ctx),
    ).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    sessions.stop(inA.id);
  });

  it('forgetting a project stops watching it', async () => {
    const t = await testCarapace();
    const { workspace } = t.carapace.services;
    const other = tempDir('carapace-project-b-');
    workspace.open(t.project);
    const b = workspace.open(other).project;
    workspace.forget(t.project);
    expect(workspace.openProjects().map((p) => p.project.id)).toEqual([b.id]);
  });
});
