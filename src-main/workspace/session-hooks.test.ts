import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectTrustState } from '../harness/permissions/trust';
import { testCarapace } from '../test-support/carapace';
import { text, toolUse } from '../test-support/engine';

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/*
 * Hooks in the app, through the composed workspace against the scripted Messages API: a project's
 * own hooks run only once the workspace trusts them; trust given during a session applies to its
 * next turn.
 */
describe('hooks in app sessions', () => {
  it("an untrusted project's PreToolUse hook does not run; once trusted, the next turn runs it", async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'first' },
          reply: { content: [toolUse('Bash', { command: 'ls' }, 'b1')], stop_reason: 'tool_use' },
        },
        { reply: { content: [text('Listed once.')] } },
        {
          when: { lastUserText: 'second' },
          reply: { content: [toolUse('Bash', { command: 'ls' }, 'b2')], stop_reason: 'tool_use' },
        },
        { reply: { content: [text('Listed twice.')] } },
      ],
    });
    const project = realpathSync(t.project);
    const marker = path.join(project, 'hook-ran.txt');
    mkdirSync(path.join(project, '.claude'));
    writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `touch ${marker}` }] }],
        },
      }),
    );
    const { workspace, sessions, trust } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;
    const turn = async (word: string) => {
      const requests = t.api.requests.length;
      sessions.send(id, word);
      await until(
        () => t.api.requests.length >= requests + 2 && sessions.get(id).session.activity === 'idle',
      );
    };

    await turn('first');
    // The Bash call ran (its result went back), the hook did not.
    expect(JSON.stringify(t.api.requests[1]?.body.messages)).toContain('tool_result');
    expect(existsSync(marker)).toBe(false);

    // The person trusts the folder, as the dialog does: the items it showed.
    const shown = projectTrustState(trust, project).items;
    expect(shown.map((i) => i.kind)).toEqual(['hook']);
    trust.trustShown(
      project,
      shown.map((i) => i.key),
    );

    await turn('second');
    expect(existsSync(marker)).toBe(true);
    // The run is a quiet note in the transcript.
    const notes = sessions
      .get(id)
      .transcript.flatMap((i) => (i.kind === 'notice' && i.code === 'hook' ? [i] : []));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      level: 'info',
      text: expect.stringMatching(/^PreToolUse hook \(Bash\): touch .* — ok/),
    });
  });

  it("the user's hooks run in an untrusted project; an item added to the project's file after trusting waits for its own trust", async () => {
    const t = await testCarapace({
      steps: [
        {
          times: true,
          when: { lastUserText: 'go' },
          reply: { content: [toolUse('Bash', { command: 'ls' }, 'b1')], stop_reason: 'tool_use' },
        },
        { times: true, when: { lastUserText: 'Exit code' }, reply: { content: [text('Done.')] } },
        { times: true, reply: { content: [text('Done.')] } },
      ],
    });
    const project = realpathSync(t.project);
    const mark = (name: string) => path.join(project, name);
    const hook = (name: string) => ({
      matcher: 'Bash',
      hooks: [{ type: 'command', command: `touch ${mark(name)}` }],
    });
    writeFileSync(
      path.join(t.home, 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [hook('user.txt')] } }),
    );
    mkdirSync(path.join(project, '.claude'));
    const projectFile = path.join(project, '.claude', 'settings.json');
    writeFileSync(projectFile, JSON.stringify({ hooks: { PreToolUse: [hook('first.txt')] } }));
    const { workspace, sessions, trust } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;
    const turn = async () => {
      const requests = t.api.requests.length;
      sessions.send(id, 'go');
      await until(
        () => t.api.requests.length >= requests + 2 && sessions.get(id).session.activity === 'idle',
      );
    };

    await turn();
    expect([existsSync(mark('user.txt')), existsSync(mark('first.txt'))]).toEqual([true, false]);

    trust.trustShown(
      project,
      projectTrustState(trust, project).items.map((i) => i.key),
    );
    // A second hook lands in the file (a pull) after the folder was trusted: not accepted yet.
    writeFileSync(
      projectFile,
      JSON.stringify({ hooks: { PreToolUse: [hook('first.txt'), hook('second.txt')] } }),
    );
    await turn();
    expect([existsSync(mark('first.txt')), existsSync(mark('second.txt'))]).toEqual([true, false]);
  });

  it('a session with a UserPromptSubmit hook still takes its title from the message, once the hook has run', async () => {
    const t = await testCarapace({ steps: [{ times: true, reply: { content: [text('Done.')] } }] });
    writeFileSync(
      path.join(t.home, 'settings.json'),
      JSON.stringify({
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo note from hook' }] }] },
      }),
    );
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(realpathSync(t.project)).project.id;
    const id = workspace.createSession(projectId).id;
    sessions.send(id, 'Refactor the parser');
    await until(() => t.api.requests.length >= 1 && sessions.get(id).session.activity === 'idle');
    expect(JSON.stringify(t.api.requests[0]?.body.messages)).toContain('note from hook');
    expect(sessions.get(id).session.title).toBe('Refactor the parser');
  });
});
