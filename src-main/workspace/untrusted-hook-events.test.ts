import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCarapace } from '../test-support/carapace';
import { text, toolUse } from '../test-support/engine';

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'Notification',
  'Stop',
  'SessionEnd',
];

/*
 * A cloned repository's `.claude/settings.json` with a hook on every event of an app session's life,
 * the PermissionRequest one answering allow: in a workspace nobody trusted, none of them runs, not
 * through the session events (start, end, notification) nor the permission race. The person's own
 * hooks on the same events do run, so the silence is the trust gate, not a session without events.
 */
describe('an untrusted project hooks no event', () => {
  it("none of the project's hooks runs, its PermissionRequest allow does not approve the Write, the user's hooks run", async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'write' },
          reply: {
            content: [toolUse('Write', { file_path: 'made.txt', content: 'x' }, 'w1')],
            stop_reason: 'tool_use',
          },
        },
        { times: true, reply: { content: [text('Done.')] } },
      ],
    });
    const project = realpathSync(t.project);
    const projectLog = path.join(project, 'project-hooks.txt');
    const userLog = path.join(project, 'user-hooks.txt');
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'no' },
      },
    });
    const hooks = (log: string, answer: string) =>
      Object.fromEntries(
        EVENTS.map((e) => [
          e,
          [
            {
              hooks: [
                {
                  type: 'command',
                  command: `echo ${e} >> ${log}${e === 'PermissionRequest' ? `; echo '${answer}'` : ''}`,
                },
              ],
            },
          ],
        ]),
      );
    mkdirSync(path.join(project, '.claude'));
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ hooks: hooks(projectLog, allow) }),
    );
    writeFileSync(
      path.join(project, '.claude', 'settings.local.json'),
      JSON.stringify({ hooks: hooks(projectLog, allow) }),
    );
    // The person's own PermissionRequest hook refuses, so the turn ends without anyone answering.
    writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify({ hooks: hooks(userLog, deny) }));
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;
    sessions.send(id, 'write');
    await until(() => t.api.requests.length >= 2 && sessions.get(id).session.activity === 'idle');
    await until(() => existsSync(userLog) && readFileSync(userLog, 'utf8').includes('Notification'));
    await t.carapace.shutdown();

    const userRan = readFileSync(userLog, 'utf8').trim().split('\n').sort();
    // PostToolUse follows a call that ran; the refused Write did not.
    expect(userRan).toEqual(EVENTS.filter((e) => e !== 'PostToolUse').sort());
    expect(existsSync(projectLog)).toBe(false);
    expect(existsSync(path.join(project, 'made.txt'))).toBe(false);
    expect(sessions.permissionLog(id).at(-1)).toMatchObject({ behavior: 'deny', decidedBy: 'hook' });
  });
});
