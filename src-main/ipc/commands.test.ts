import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWorking } from '@shared/domain/session';
import { text } from '../test-support/engine';
import { testCarapace } from '../test-support/carapace';
import { commandHandlers } from './commands';

const MODEL = 'claude-sonnet-4-5';
const ctx = { transport: 'websocket' as const };

function writeCommand(project: string, rel: string, body: string): void {
  const file = path.join(project, '.claude', 'commands', rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
}

/* Custom commands in the app: the composer's list, and a sent `/command` expanded in the main process. */
describe('slash commands in the app', () => {
  it('commands.list gives the project commands with namespaces and reports the files left out', async () => {
    const t = await testCarapace();
    const s = t.carapace.services;
    writeCommand(
      t.project,
      'fix-issue.md',
      '---\ndescription: Fix an issue\nargument-hint: [n]\n---\nFix $1',
    );
    writeCommand(t.project, 'frontend/component.md', 'Make a component');
    writeFileSync(path.join(t.home, 'outside.md'), 'secret');
    symlinkSync(path.join(t.home, 'outside.md'), path.join(t.project, '.claude', 'commands', 'leak.md'));
    const { project } = s.workspace.open(t.project);
    const list = await commandHandlers(s)['commands.list']({ projectId: project.id }, ctx);
    const mine = list.commands.filter((c) => c.scope === 'project');
    expect(mine).toEqual([
      {
        name: 'fix-issue',
        scope: 'project',
        description: 'Fix an issue',
        argumentHint: '[n]',
        model: null,
        allowedTools: [],
      },
      {
        name: 'frontend:component',
        scope: 'project',
        description: 'Make a component',
        argumentHint: null,
        model: null,
        allowedTools: [],
      },
    ]);
    expect(list.problems.find((p) => p.file.endsWith('leak.md'))?.message).toMatch(
      /outside the commands folder/,
    );
    expect(() => commandHandlers(s)['commands.list']({ projectId: 'no-such-project' }, ctx)).toThrow();
  });

  it('sessions.send expands a custom command; an unknown /name is refused and nothing is sent', async () => {
    const t = await testCarapace({ steps: [{ times: true, reply: { content: [text('Fixed.')] } }] });
    const s = t.carapace.services;
    writeCommand(t.project, 'fix-issue.md', 'Please fix GitHub issue #$ARGUMENTS.');
    const session = s.workspace.createSession(s.workspace.open(t.project).project.id, MODEL);
    expect(() => s.sessions.send(session.id, '/nope 1')).toThrow(/Unknown slash command: \/nope/);
    expect(t.api.requests).toHaveLength(0);
    s.sessions.send(session.id, '/fix-issue 42');
    await expect.poll(() => isWorking(s.sessions.get(session.id).session.activity)).toBe(false);
    const sent = JSON.stringify(t.api.requests.find((r) => r.body.model === MODEL)?.body.messages);
    expect(sent).toContain('Please fix GitHub issue #42.');
  });

  it("a command's model is its turn's; the session's own comes back when the turn ends", async () => {
    const t = await testCarapace({ steps: [{ times: true, reply: { content: [text('Looked.')] } }] });
    const s = t.carapace.services;
    writeCommand(t.project, 'quick.md', '---\nmodel: haiku\n---\nQuick look at $ARGUMENTS.');
    const session = s.workspace.createSession(s.workspace.open(t.project).project.id, MODEL);
    s.sessions.send(session.id, '/quick README.md');
    expect(s.sessions.get(session.id).session.model).toBe('claude-haiku-4-5');
    await expect.poll(() => isWorking(s.sessions.get(session.id).session.activity)).toBe(false);
    const request = t.api.requests.find((r) =>
      JSON.stringify(r.body.messages).includes('Quick look at README.md'),
    );
    expect(request?.body.model).toBe('claude-haiku-4-5');
    await expect.poll(() => s.sessions.get(session.id).session.model).toBe(MODEL);
    // The next plain message goes on the session's model.
    s.sessions.send(session.id, 'and now?');
    await expect.poll(() => isWorking(s.sessions.get(session.id).session.activity)).toBe(false);
    expect(t.api.requests.find((r) => JSON.stringify(r.body.messages).includes('and now?'))?.body.model).toBe(
      MODEL,
    );
  });
});
