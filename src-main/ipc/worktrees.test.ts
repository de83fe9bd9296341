import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { SessionSummary } from '@shared/domain/session';
import { createCarapace } from '../compose';
import { silentLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { testCarapace } from '../test-support/carapace';
import { ipcCall } from '../test-support/ipc-call';
import { until } from '../test-support/wait';
import { worktreeSession } from '../test-support/worktree-session';
import { tempDir } from '../test-support/temp';

const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

/** worktrees.* through the real router, on a fully composed Carapace. */
describe('worktrees IPC', () => {
  it('creates a session in its own worktree: the setting sets the default, the terminal starts there, and a restart keeps it', async () => {
    const t = await testCarapace();
    sh(t.project, 'init', '-q', '-b', 'main');
    sh(
      t.project,
      '-c',
      'user.name=T',
      '-c',
      'user.email=t@example.com',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'x',
    );
    writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify({ worktrees: { default: true } }));
    t.carapace.services.settings.reload();
    const call = ipcCall(t.carapace.services);
    const project = t.carapace.services.workspace.open(t.project).project;

    expect(await call('worktrees.info', { projectId: project.id })).toEqual({
      ok: true,
      value: { isGit: true, branches: ['main'], current: 'main', defaultOn: true },
    });
    expect(
      await call('worktrees.createSession', { projectId: project.id, base: '--upload-pack=x' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    const made = await call('worktrees.createSession', { projectId: project.id, base: 'main' });
    if (!made.ok) throw new Error(made.error.message);
    const session = made.value as SessionSummary;
    const wt = session.worktree;
    expect(wt?.branch).toMatch(/^carapace\/session-[0-9a-f]{8}$/);
    expect(wt?.base).toBe('main');
    expect(realpathSync(path.dirname(path.dirname(wt?.path ?? '')))).toBe(
      realpathSync(path.join(t.home, 'worktrees')),
    );
    expect(sh(wt?.path ?? '', 'symbolic-ref', '--short', 'HEAD').trim()).toBe(wt?.branch);

    // The session's own terminal starts in the worktree.
    let out = '';
    t.carapace.hub.subscribe((event, payload) => {
      if (event === 'terminal.data') out += (payload as { data: string }).data;
    });
    const term = await call('terminal.open', { sessionId: session.id, cols: 120, rows: 24 });
    if (!term.ok) throw new Error(term.error.message);
    const { terminalId } = term.value as { terminalId: string };
    await call('terminal.input', { terminalId, data: 'pwd -P\r' });
    await until(() => out.includes(realpathSync(wt?.path ?? '')));
    await call('terminal.close', { terminalId });

    expect(await call('worktrees.status', { projectId: project.id })).toEqual({
      ok: true,
      value: [
        {
          sessionId: session.id,
          branch: wt?.branch,
          base: 'main',
          ahead: 0,
          behind: 0,
          dirty: 0,
          exists: true,
          problem: null,
        },
      ],
    });

    // Read back from its transcript after a restart, it still works in its worktree.
    await t.carapace.shutdown();
    const again = createCarapace({
      env: t.env,
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      version: '0',
      homeDir: t.userHome,
    });
    onTestFinished(() => again.shutdown());
    const p2 = again.services.workspace.open(t.project).project;
    const listed = again.services.sessions.list(p2.id).find((s) => s.id === session.id);
    expect(listed?.worktree).toEqual(wt);
    expect(again.services.sessions.workRootOf(session.id)).toBe(wt?.path);
    expect(again.services.sessions.projectRootOf(session.id)).toBe(realpathSync(t.project));
  });

  it("treats the worktree as the project edge: edits inside run in acceptEdits, its .git file and the main repository's worktree data ask", async () => {
    const { t, call, project, session, wt } = await worktreeSession('before\n');
    const name = path.basename(wt.path);
    const adminHead = path.join(t.project, '.git', 'worktrees', name, 'HEAD');
    const dotGit = readFileSync(path.join(wt.path, '.git'), 'utf8');
    const head = readFileSync(adminHead, 'utf8');
    const write = (id: string, file_path: string) => ({
      reply: {
        content: [
          {
            type: 'tool_use' as const,
            id,
            name: 'Write',
            input: { file_path, content: 'gitdir: /tmp/evil\n' },
          },
        ],
        stop_reason: 'tool_use' as const,
      },
    });
    t.api.setScenario({
      steps: [
        write('w1', path.join(wt.path, 'new.txt')),
        write('w2', path.join(wt.path, '.git')),
        write('w3', adminHead),
        write('w4', path.join(t.project, 'a.txt')),
        { reply: { content: [{ type: 'text', text: 'done' }] } },
      ],
    });
    const asked: string[] = [];
    t.carapace.hub.subscribe((event, payload) => {
      if (event !== 'permissions.requested') return;
      const { request } = payload as { request: { id: string; input: unknown } };
      asked.push(JSON.stringify(request.input));
      setTimeout(() => t.carapace.services.broker.respond({ requestId: request.id, decision: 'deny' }), 5);
    });
    await call('sessions.setPermissionMode', { sessionId: session.id, mode: 'acceptEdits' });
    await call('sessions.send', { sessionId: session.id, text: 'go' });
    await until(
      () =>
        t.api.requests.length >= 5 &&
        !t.carapace.services.sessions.list(project.id).some((s) => s.activity !== 'idle'),
    );
    // Inside the worktree: written without asking.
    expect(readFileSync(path.join(wt.path, 'new.txt'), 'utf8')).toBe('gitdir: /tmp/evil\n');
    // Its .git file, the main repository's data for it and the main checkout: asked, denied, unchanged.
    expect(asked).toHaveLength(3);
    expect(asked[0]).toContain(path.join(wt.path, '.git'));
    expect(asked[1]).toContain(adminHead);
    expect(asked[2]).toContain(path.join(t.project, 'a.txt'));
    expect(readFileSync(path.join(wt.path, '.git'), 'utf8')).toBe(dotGit);
    expect(readFileSync(adminHead, 'utf8')).toBe(head);
    expect(readFileSync(path.join(t.project, 'a.txt'), 'utf8')).toBe('before\n');
  });

  it('offers no worktree for a folder outside git, and refuses to make one', async () => {
    const t = await testCarapace();
    const plain = tempDir('carapace-plain-');
    mkdirSync(path.join(plain, 'src'));
    const call = ipcCall(t.carapace.services);
    const project = t.carapace.services.workspace.open(plain).project;
    expect(await call('worktrees.info', { projectId: project.id })).toEqual({
      ok: true,
      value: { isGit: false, branches: [], current: null, defaultOn: false },
    });
    const r = await call('worktrees.createSession', { projectId: project.id, base: 'main' });
    expect(r).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(JSON.stringify(r)).toContain('not in a git repository');
    expect(t.carapace.services.sessions.list(project.id)).toEqual([]);
  });
});
