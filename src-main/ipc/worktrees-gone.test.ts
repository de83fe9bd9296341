import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWorking, type SessionSummary } from '@shared/domain/session';
import type { TestCarapace } from '../test-support/carapace';
import { tempDir } from '../test-support/temp';
import { until } from '../test-support/wait';
import { worktreeSession as composedWorktreeSession } from '../test-support/worktree-session';

const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

/** A session in its own worktree (test-support/worktree-session.ts), and a wait for its turn to end. */
async function worktreeSession() {
  const made = await composedWorktreeSession();
  const { t, project } = made;
  const idle = () =>
    until(() => !t.carapace.services.sessions.list(project.id).some((s) => isWorking(s.activity)));
  return { ...made, idle };
}

const bodies = (t: TestCarapace) => t.api.requests.map((r) => JSON.stringify(r.body)).join('\n');

/** A session whose worktree went away: no tool runs, no turn starts, and it can go on in the main checkout. */
describe('a session whose worktree is gone', () => {
  it('runs no tool once its folder is swapped for a link mid-turn, and starts no turn after', async () => {
    const { t, call, session, wt, idle } = await worktreeSession();
    // Another repository, so git would work there if asked to.
    const victim = tempDir('carapace-victim-');
    sh(victim, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(victim, 'precious.txt'), 'keep\n');
    t.api.setScenario({
      steps: [
        {
          reply: {
            content: [
              {
                type: 'tool_use',
                id: 'b1',
                name: 'Bash',
                input: { command: 'echo pwned > pwned.txt', description: 'write a file' },
              },
            ],
            stop_reason: 'tool_use',
          },
        },
        { times: true, reply: { content: [{ type: 'text', text: 'done' }] } },
      ],
    });
    // A hook after each tool call says where it ran: hooks start in the session's folder too.
    const marker = path.join(tempDir('carapace-marker-'), 'hook-ran');
    const hook = [{ hooks: [{ type: 'command', command: `pwd -P > ${marker}` }] }];
    writeFileSync(
      path.join(t.home, 'settings.json'),
      JSON.stringify({ hooks: { PostToolUse: hook, PostToolUseFailure: hook } }),
    );
    t.carapace.services.settings.reload();
    // While the person is asked about the command, someone replaces the worktree with a link.
    let asked = 0;
    t.carapace.hub.subscribe((event, payload) => {
      if (event !== 'permissions.requested') return;
      asked++;
      rmSync(wt.path, { recursive: true, force: true });
      symlinkSync(victim, wt.path);
      const { request } = payload as { request: { id: string } };
      t.carapace.services.broker.respond({ requestId: request.id, decision: 'allow_once' });
    });
    expect(await call('sessions.send', { sessionId: session.id, text: 'go' })).toMatchObject({ ok: true });
    await until(() => bodies(t).includes('No tool can run in this session'));
    await idle();
    expect(asked).toBe(1);
    expect(readdirSync(victim).sort()).toEqual(['.git', 'precious.txt']);
    expect(bodies(t)).toContain(`Its worktree folder ${wt.path} was replaced by a link`);
    expect(existsSync(marker)).toBe(false);
    // The next message is refused before anything starts, saying why and what to do.
    const before = t.api.requests.length;
    const r = await call('sessions.send', { sessionId: session.id, text: 'again' });
    expect(r).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(JSON.stringify(r)).toContain('replaced by a link');
    expect(JSON.stringify(r)).toContain('Continue this session in the main checkout');
    expect(t.api.requests.length).toBe(before);
    // Nor does its terminal open in the link, or a rewind write there.
    const term = await call('terminal.open', { sessionId: session.id, cols: 80, rows: 24 });
    expect(term).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(JSON.stringify(term)).toContain('replaced by a link');
    const got = await call('sessions.get', { sessionId: session.id });
    if (!got.ok) throw new Error(got.error.message);
    const mine = (got.value as { transcript: { id: string; kind: string; role?: string }[] }).transcript.find(
      (i) => i.kind === 'message' && i.role === 'user',
    );
    const plan = await call('rewind.plan', { sessionId: session.id, messageId: mine?.id ?? '' });
    expect(plan).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    // The Changes view does not list, stage or commit in the repository the link leads to.
    const changes = await call('changes.list', { sessionId: session.id });
    expect(changes).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(JSON.stringify(changes)).toContain('replaced by a link');
    expect(await call('changes.commit', { sessionId: session.id, message: 'x' })).toMatchObject({
      ok: false,
    });
    expect(sh(victim, 'status', '--porcelain')).toBe('?? precious.txt\n');
    expect(readdirSync(victim).sort()).toEqual(['.git', 'precious.txt']);
  });

  it('removed by hand: refused on send, pruned from git, continued in the main checkout, archived on delete', async () => {
    const { t, call, project, session, wt, idle } = await worktreeSession();
    t.api.setScenario({
      steps: [
        {
          when: { lastUserText: 'hello' },
          reply: { content: [{ type: 'text', text: 'hi from the worktree' }] },
        },
        {
          when: { lastUserText: 'carry on' },
          reply: { content: [{ type: 'text', text: 'carrying on in main' }] },
        },
      ],
    });
    await call('sessions.send', { sessionId: session.id, text: 'hello' });
    await until(() => bodies(t).includes('hello'));
    await idle();
    // A commit only its branch has, then the folder goes (`rm -rf`, not through the app).
    writeFileSync(path.join(wt.path, 'b.txt'), 'b\n');
    sh(wt.path, 'add', '.');
    sh(wt.path, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'b');
    rmSync(wt.path, { recursive: true, force: true });

    const status = await call('worktrees.status', { projectId: project.id });
    expect(status).toMatchObject({
      ok: true,
      value: [
        {
          sessionId: session.id,
          exists: false,
          problem: `Its worktree was deleted (${wt.path} no longer exists).`,
        },
      ],
    });
    expect(sh(t.project, 'worktree', 'list', '--porcelain')).not.toContain(wt.path);
    const refused = await call('sessions.send', { sessionId: session.id, text: 'more' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(JSON.stringify(refused)).toContain('Its worktree was deleted');

    // Continued in the main checkout: the conversation so far, no worktree, and it works there.
    const cont = await call('worktrees.continueInMain', { sessionId: session.id });
    if (!cont.ok) throw new Error(cont.error.message);
    const next = cont.value as SessionSummary;
    expect(next.worktree).toBeUndefined();
    expect(next.title).toBe('hello (main checkout)');
    expect(t.carapace.services.sessions.workRootOf(next.id)).toBe(
      t.carapace.services.sessions.projectRootOf(next.id),
    );
    const got = await call('sessions.get', { sessionId: next.id });
    expect(JSON.stringify(got)).toContain('hi from the worktree');
    expect(await call('sessions.send', { sessionId: next.id, text: 'carry on' })).toMatchObject({ ok: true });
    await until(() => bodies(t).includes('carry on'));
    await idle();
    expect(JSON.stringify(await call('sessions.get', { sessionId: next.id }))).toContain(
      'carrying on in main',
    );

    // Delete asks first (the branch's commit is nowhere else), then archives the session.
    expect(await call('worktrees.loss', { sessionId: session.id })).toEqual({
      ok: true,
      value: { files: [], commits: 1 },
    });
    const ask = await call('worktrees.remove', { sessionId: session.id });
    expect(ask).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(JSON.stringify(ask)).toContain(`1 commit on ${wt.branch} that no other branch has`);
    expect(await call('worktrees.remove', { sessionId: session.id, force: true })).toEqual({
      ok: true,
      value: { removed: true, archived: true },
    });
    expect(sh(t.project, 'branch', '--list', wt.branch).trim()).toBe('');
    const listed = t.carapace.services.sessions.list(project.id).map((s) => s.id);
    expect(listed).toContain(next.id);
    expect(listed).not.toContain(session.id);
    expect(await call('sessions.archived', { projectId: project.id })).toMatchObject({
      ok: true,
      value: [{ id: session.id }],
    });
  });

  it('is not continued elsewhere while its worktree is still there', async () => {
    const { call, session, wt } = await worktreeSession();
    expect(existsSync(wt.path)).toBe(true);
    const r = await call('worktrees.continueInMain', { sessionId: session.id });
    expect(r).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    mkdirSync(path.join(wt.path, 'sub'));
  });
});
