import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createCarapace, type Carapace } from '../compose';
import { AppError } from '../platform/errors';
import { silentLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { testCarapace } from '../test-support/carapace';
import { tempDir } from '../test-support/temp';

const bash = (id: string, command: string) => ({
  reply: {
    content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command } }],
    stop_reason: 'tool_use' as const,
  },
});
const done = { times: true as const, reply: { content: [{ type: 'text' as const, text: 'Done.' }] } };

interface World {
  home: string;
  project: string;
  policyFile: string;
  /** A new process on the same data folder (a restart of the app or of serve mode). */
  start(): Carapace;
}

/** A data folder, a project and a managed policy path; each start() is a new process on them. */
async function world(scenario?: Parameters<typeof testCarapace>[0]): Promise<World> {
  const policyFile = path.join(tempDir('carapace-policy-'), 'managed-settings.json');
  const t = await testCarapace(scenario, { CARAPACE_MANAGED_SETTINGS: policyFile });
  const running = new Set<Carapace>();
  onTestFinished(async () => {
    for (const c of running) await c.shutdown();
  });
  return {
    home: t.home,
    project: t.project,
    policyFile,
    start() {
      const c = createCarapace({
        env: t.env,
        secrets: new MemorySecretStore(),
        logger: silentLogger,
        version: '0.0.0-test',
        homeDir: t.userHome,
      });
      running.add(c);
      const shutdown = c.shutdown.bind(c);
      c.shutdown = async () => {
        running.delete(c);
        await shutdown();
      };
      return c;
    },
  };
}

/** Waits until the session's turn has ended. */
async function idle(c: Carapace, sessionId: string): Promise<void> {
  await expect
    .poll(() => c.services.sessions.get(sessionId).session.activity, { timeout: 15_000 })
    .toMatch(/^(idle|error)$/);
}

const writeJson = (file: string, value: object) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};

describe('permission modes across a restart', () => {
  it('a session left in bypass reopens in the default mode, and a writing command asks again', async () => {
    const w = await world({
      steps: [
        { when: { lastUserText: 'first write' }, ...bash('t1', 'touch first.txt') },
        { when: { lastUserText: 'second write' }, ...bash('t2', 'touch second.txt') },
        done,
      ],
    });
    const before = w.start();
    const projectId = before.services.workspace.open(w.project).project.id;
    const { id } = before.services.workspace.createSession(projectId);
    before.services.sessions.setPermissionMode(id, 'bypassPermissions');
    // Control: while the session is in bypass, the same kind of command runs without asking.
    before.services.sessions.send(id, 'first write');
    await idle(before, id);
    expect(existsSync(path.join(w.project, 'first.txt'))).toBe(true);
    expect(before.services.broker.list()).toEqual([]);
    await before.shutdown();

    const after = w.start();
    const reopened = after.services.workspace.open(w.project);
    // The list (from the index, which cached the bypass) and the session itself agree.
    expect(reopened.sessions.find((s) => s.id === id)?.permissionMode).toBe('default');
    expect(after.services.sessions.get(id).session.permissionMode).toBe('default');
    after.services.sessions.send(id, 'second write');
    await expect.poll(() => after.services.broker.list().length, { timeout: 15_000 }).toBe(1);
    expect(after.services.broker.list()[0]?.summary).toContain('touch second.txt');
    expect(existsSync(path.join(w.project, 'second.txt'))).toBe(false);
    after.services.sessions.stop(id);
    await idle(after, id);
  });

  it("a narrower mode is kept: a session in Plan (or Don't ask) reopens in it", async () => {
    const w = await world();
    const before = w.start();
    const projectId = before.services.workspace.open(w.project).project.id;
    const plan = before.services.workspace.createSession(projectId).id;
    const dontAsk = before.services.workspace.createSession(projectId).id;
    before.services.sessions.setPermissionMode(plan, 'plan');
    before.services.sessions.setPermissionMode(dontAsk, 'dontAsk');
    await before.shutdown();
    const after = w.start();
    after.services.workspace.open(w.project);
    expect(after.services.sessions.get(plan).session.permissionMode).toBe('plan');
    expect(after.services.sessions.get(dontAsk).session.permissionMode).toBe('dontAsk');
  });

  it('bypass from the user settings survives, since a new session would start in it anyway', async () => {
    const w = await world();
    writeJson(path.join(w.home, 'settings.json'), { permissions: { defaultMode: 'bypassPermissions' } });
    const before = w.start();
    const projectId = before.services.workspace.open(w.project).project.id;
    const session = before.services.workspace.createSession(projectId);
    expect(session.permissionMode).toBe('bypassPermissions');
    await before.shutdown();
    const after = w.start();
    after.services.workspace.open(w.project);
    expect(after.services.sessions.get(session.id).session.permissionMode).toBe('bypassPermissions');
  });
});

describe('the start mode of new sessions in the app', () => {
  it("ignores bypass and acceptEdits from the project's own .claude files; honours the user's settings", async () => {
    const w = await world();
    writeJson(path.join(w.project, '.claude', 'settings.json'), {
      permissions: { defaultMode: 'bypassPermissions' },
    });
    const c = w.start();
    const projectId = c.services.workspace.open(w.project).project.id;
    expect(c.services.workspace.createSession(projectId).permissionMode).toBe('default');
    expect(c.services.sessions.projectModes(projectId).problems.join('\n')).toContain(
      "a project's own settings cannot widen",
    );

    writeJson(path.join(w.project, '.claude', 'settings.local.json'), {
      permissions: { defaultMode: 'acceptEdits' },
    });
    expect(c.services.workspace.createSession(projectId).permissionMode).toBe('default');

    // Control: the same key in the person's own settings is honoured.
    writeJson(path.join(w.home, 'settings.json'), { permissions: { defaultMode: 'acceptEdits' } });
    expect(c.services.workspace.createSession(projectId).permissionMode).toBe('acceptEdits');
  });

  it('a narrowing mode from the project applies (plan)', async () => {
    const w = await world();
    writeJson(path.join(w.project, '.claude', 'settings.json'), { permissions: { defaultMode: 'plan' } });
    const c = w.start();
    const projectId = c.services.workspace.open(w.project).project.id;
    expect(c.services.workspace.createSession(projectId).permissionMode).toBe('plan');
  });

  it('disableBypassPermissionsMode in the policy refuses bypass; other modes still change', async () => {
    const w = await world();
    writeJson(w.policyFile, { permissions: { disableBypassPermissionsMode: 'disable' } });
    writeJson(path.join(w.home, 'settings.json'), { permissions: { defaultMode: 'bypassPermissions' } });
    const c = w.start();
    const projectId = c.services.workspace.open(w.project).project.id;
    const { id, permissionMode } = c.services.workspace.createSession(projectId);
    expect(permissionMode).toBe('default');
    expect(c.services.sessions.projectModes(projectId).bypass.available).toBe(false);
    let refused: unknown = null;
    try {
      c.services.sessions.setPermissionMode(id, 'bypassPermissions');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('FORBIDDEN');
    expect((refused as AppError).message).toContain('disableBypassPermissionsMode');
    expect(c.services.sessions.get(id).session.permissionMode).toBe('default');
    // Control: the picker's other modes still apply.
    expect(c.services.sessions.setPermissionMode(id, 'acceptEdits').permissionMode).toBe('acceptEdits');
  });

  it('a policy that disables bypass while a session is in it stops it at the next tool call', async () => {
    const w = await world({
      steps: [
        { when: { lastUserText: 'write now' }, ...bash('b1', 'touch now.txt') },
        { when: { lastUserText: 'write later' }, ...bash('b2', 'touch later.txt') },
        done,
      ],
    });
    const c = w.start();
    const projectId = c.services.workspace.open(w.project).project.id;
    const { id } = c.services.workspace.createSession(projectId);
    c.services.sessions.setPermissionMode(id, 'bypassPermissions');
    // Control: before the policy, bypass runs the write.
    c.services.sessions.send(id, 'write now');
    await idle(c, id);
    expect(existsSync(path.join(w.project, 'now.txt'))).toBe(true);

    writeJson(w.policyFile, { permissions: { disableBypassPermissionsMode: 'disable' } });
    c.services.sessions.send(id, 'write later');
    await expect.poll(() => c.services.broker.list().length, { timeout: 15_000 }).toBe(1);
    expect(existsSync(path.join(w.project, 'later.txt'))).toBe(false);
    c.services.sessions.stop(id);
    await idle(c, id);
  });
});
