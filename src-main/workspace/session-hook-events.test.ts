import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookRunner } from '../harness/hooks/dispatch';
import { SessionHookEvents } from '../harness/hooks/session-events';
import type { ConfiguredHook } from '../harness/hooks/sources';
import { testCarapace } from '../test-support/carapace';
import { text, toolUse } from '../test-support/engine';
import { tempDir } from '../test-support/temp';

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const command = (cmd: string) => ({ type: 'command', command: cmd });
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/*
 * The hook events of an app session's life, through the composed workspace against the scripted
 * Messages API, with the user's own hooks (they run in any folder).
 */
describe('session hook events in the app', () => {
  it('SessionStart (startup) runs as a session is created and its context goes with the first prompt; SessionEnd runs at shutdown', async () => {
    const t = await testCarapace({ steps: [{ times: true, reply: { content: [text('Hello.')] } }] });
    const project = realpathSync(t.project);
    const out = (name: string) => path.join(project, name);
    writeFileSync(
      path.join(t.home, 'settings.json'),
      JSON.stringify({
        hooks: {
          SessionStart: [
            {
              matcher: 'startup',
              hooks: [command(`cat > ${out('start.json')}; echo "The codeword is mango."`)],
            },
          ],
          SessionEnd: [{ hooks: [command(`cat > ${out('end.json')}`)] }],
        },
      }),
    );
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;
    sessions.send(id, 'hi');
    await until(() => t.api.requests.length >= 1 && sessions.get(id).session.activity === 'idle');
    expect(readJson(out('start.json'))).toMatchObject({
      hook_event_name: 'SessionStart',
      source: 'startup',
      session_id: id,
      cwd: project,
    });
    const first = JSON.stringify(t.api.requests[0]?.body.messages);
    expect(first).toContain('The codeword is mango.');
    expect(first).toContain('hi');
    expect(existsSync(out('end.json'))).toBe(false);

    await t.carapace.shutdown();
    expect(readJson(out('end.json'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'other',
      session_id: id,
    });
  });

  it('a permission prompt runs the Notification hooks; a PermissionRequest hook answers for the person', async () => {
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
    const out = (name: string) => path.join(project, name);
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    writeFileSync(
      path.join(t.home, 'settings.json'),
      JSON.stringify({
        hooks: {
          Notification: [{ matcher: 'permission_prompt', hooks: [command(`cat > ${out('note.json')}`)] }],
          PermissionRequest: [{ matcher: 'Write', hooks: [command(`echo '${allow}'`)] }],
        },
      }),
    );
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;
    sessions.send(id, 'write');
    await until(() => t.api.requests.length >= 2 && sessions.get(id).session.activity === 'idle');
    // Nobody answered in the UI: the hook did, and the file was written.
    expect(readFileSync(out('made.txt'), 'utf8')).toBe('x');
    await until(() => existsSync(out('note.json')) && readFileSync(out('note.json'), 'utf8').endsWith('}'));
    expect(readJson(out('note.json'))).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: 'Claude needs your permission to use Write',
    });
    const log = sessions.permissionLog(id);
    expect(log.at(-1)).toMatchObject({ behavior: 'allow', decidedBy: 'hook' });
    expect(log.at(-1)?.reason).toContain('PermissionRequest hook (user settings');
  });
});

describe('SessionHookEvents', () => {
  it('the idle Notification runs when a turn has ended and the session sits idle, again after the next turn', async () => {
    const dir = tempDir('carapace-idle-');
    const hooks: ConfiguredHook[] = [
      {
        event: 'Notification',
        matcher: 'idle_prompt',
        handler: {
          type: 'command',
          command: `cat >> ${path.join(dir, 'idle.jsonl')}; echo >> ${path.join(dir, 'idle.jsonl')}`,
        },
        source: 'user',
        file: path.join(dir, 'settings.json'),
      },
    ];
    const runner = new HookRunner({
      hooks: () => hooks,
      sessionId: 's',
      transcriptPath: path.join(dir, 's.jsonl'),
      projectDir: dir,
      cwd: () => dir,
      permissionMode: () => 'default',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      home: dir,
    });
    const ran: string[] = [];
    runner.subscribe((r) => ran.push(r.event));
    const events = new SessionHookEvents(runner, { notify: () => undefined, idleMs: 1 });
    events.turnEnded();
    await until(() => ran.length >= 1);
    const lines = () => readFileSync(path.join(dir, 'idle.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(lines()[0] ?? '')).toMatchObject({
      notification_type: 'idle_prompt',
      title: 'Waiting for input',
    });
    // A new spell after a turn notifies again.
    events.turnStarted();
    events.turnEnded();
    await until(() => ran.length >= 2);
    expect(lines()).toHaveLength(2);
    await events.end('other');
  });
  it("SessionEnd is waited for past the 1.5 s budget when the hook's own timeout asks for more", async () => {
    const dir = tempDir('carapace-end-');
    const done = path.join(dir, 'done');
    const hooks: ConfiguredHook[] = [
      {
        event: 'SessionEnd',
        matcher: '',
        handler: { type: 'command', command: `sleep 2; cat > ${done}`, timeout: 10 },
        source: 'user',
        file: path.join(dir, 'settings.json'),
      },
    ];
    const runner = new HookRunner({
      hooks: () => hooks,
      sessionId: 's',
      transcriptPath: path.join(dir, 's.jsonl'),
      projectDir: dir,
      cwd: () => dir,
      permissionMode: () => 'default',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      home: dir,
    });
    await new SessionHookEvents(runner, { notify: () => undefined }).end('other');
    expect(readJson(done)).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other' });
  });
});
