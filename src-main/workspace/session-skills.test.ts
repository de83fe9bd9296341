import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCarapace } from '../test-support/carapace';
import { text, toolUse } from '../test-support/engine';

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/*
 * Skills in app sessions, through the composed workspace against the scripted Messages API: the
 * session is offered the project's skills, a used skill's body reaches the model, and a broken
 * skill is shown to the person as a note.
 */
describe('skills in app sessions', () => {
  it('offers the project’s skill, hands its body to the model on use, and notes a broken one', async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'greet' },
          reply: { content: [toolUse('Skill', { skill: 'greet' }, 's1')], stop_reason: 'tool_use' },
        },
        { reply: { content: [text('Greeted.')] } },
      ],
    });
    const project = realpathSync(t.project);
    const skills = path.join(project, '.claude', 'skills');
    mkdirSync(path.join(skills, 'greet'), { recursive: true });
    writeFileSync(path.join(skills, 'greet', 'SKILL.md'), '---\ndescription: Greets.\n---\nAPP-SKILL-BODY\n');
    mkdirSync(path.join(skills, 'broken'), { recursive: true });
    writeFileSync(path.join(skills, 'broken', 'SKILL.md'), '---\nname: [oops\n---\nbody\n');
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(project).project.id;
    const id = workspace.createSession(projectId).id;

    sessions.send(id, 'greet');
    await until(
      () => t.api.requests.length >= 2 && sessions.get(id).session.activity === 'idle',
      'the turn to end',
    );
    const first = t.api.requests[0]?.body as { tools?: { name: string; description?: string }[] };
    expect(first.tools?.find((x) => x.name === 'Skill')?.description).toContain('- greet: Greets.');
    expect(JSON.stringify(t.api.requests[1]?.body.messages)).toContain('APP-SKILL-BODY');
    const transcript = sessions.get(id).transcript;
    expect(transcript).toContainEqual(
      expect.objectContaining({
        kind: 'notice',
        code: 'skill_file',
        text: expect.stringContaining('broken/SKILL.md: Not loaded: its frontmatter is not valid YAML'),
      }),
    );
    expect(JSON.stringify(transcript)).toContain('Greeted.');
  });
});
