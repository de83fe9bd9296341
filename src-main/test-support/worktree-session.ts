import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionSummary } from '@shared/domain/session';
import { testCarapace } from './carapace';
import { ipcCall } from './ipc-call';

const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

/**
 * A composed Carapace on a git project (branch main, one commit of a.txt holding `aTxt`) and a
 * session in its own worktree, made through the IPC router as the window makes it.
 */
export async function worktreeSession(aTxt = 'one\n') {
  const t = await testCarapace();
  sh(t.project, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(t.project, 'a.txt'), aTxt);
  sh(t.project, 'add', '.');
  sh(t.project, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'x');
  const call = ipcCall(t.carapace.services);
  const project = t.carapace.services.workspace.open(t.project).project;
  const made = await call('worktrees.createSession', { projectId: project.id, base: 'main' });
  if (!made.ok) throw new Error(made.error.message);
  const session = made.value as SessionSummary;
  if (!session.worktree) throw new Error('no worktree');
  return { t, call, project, session, wt: session.worktree };
}
