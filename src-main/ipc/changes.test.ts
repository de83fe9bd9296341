import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '@shared/domain/session';
import type { ChangeSet } from '@shared/ipc/contract/changes';
import { testCarapace } from '../test-support/carapace';
import { ipcCall } from '../test-support/ipc-call';

const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });

/** changes.* through the real router on a fully composed Carapace. */
describe('changes IPC', () => {
  it("lists a worktree session's branch against its base and a plain session's uncommitted changes", async () => {
    const t = await testCarapace();
    writeFileSync(path.join(t.project, 'a.txt'), 'one\n');
    sh(t.project, 'init', '-q', '-b', 'main');
    sh(t.project, 'add', '.');
    sh(t.project, 'commit', '-q', '-m', 'first');
    const call = ipcCall(t.carapace.services, 'websocket');
    const project = t.carapace.services.workspace.open(t.project).project;

    const made = await call('worktrees.createSession', { projectId: project.id, base: 'main' });
    if (!made.ok) throw new Error(made.error.message);
    const inWorktree = made.value as SessionSummary;
    const wt = inWorktree.worktree?.path ?? '';
    writeFileSync(path.join(wt, 'a.txt'), 'one\ntwo\n');
    writeFileSync(path.join(t.project, 'main-only.txt'), 'not the session’s\n');

    const wtList = await call('changes.list', { sessionId: inWorktree.id });
    expect(wtList).toMatchObject({
      ok: true,
      value: { source: 'worktree', base: 'main', branch: inWorktree.worktree?.branch },
    });
    if (!wtList.ok) return;
    expect((wtList.value as ChangeSet).files.map((f) => [f.path, f.additions])).toEqual([['a.txt', 1]]);

    const plain = await call('sessions.create', { projectId: project.id });
    if (!plain.ok) throw new Error(plain.error.message);
    const plainId = (plain.value as SessionSummary).id;
    const plainList = await call('changes.list', { sessionId: plainId });
    expect(plainList).toMatchObject({ ok: true, value: { source: 'uncommitted', base: 'HEAD' } });
    if (!plainList.ok) return;
    expect((plainList.value as ChangeSet).files.map((f) => [f.path, f.status])).toEqual([
      ['main-only.txt', 'untracked'],
    ]);

    // Hostile input is refused by the contract before any git runs.
    for (const bad of ['../etc/passwd', '-c', '/etc/passwd'])
      expect(await call('changes.diff', { sessionId: plainId, path: bad })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT' },
      });
    // Discarding needs the person's confirmation in the request itself.
    expect(
      await call('changes.discardHunk', {
        sessionId: inWorktree.id,
        path: 'a.txt',
        hunk: 0,
        header: '@@ -1 +1,2 @@',
        confirmed: false as unknown as true,
      }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    // The system editor is the desktop app's: over the WebSocket it is refused, saying so.
    expect(await call('changes.openInEditor', { sessionId: inWorktree.id, path: 'a.txt' })).toMatchObject({
      ok: false,
      error: { code: 'UNAVAILABLE', message: expect.stringContaining('not available in the browser') },
    });
  });
});
