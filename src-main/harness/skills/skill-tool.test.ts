import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { tempDir } from '../../test-support/temp';
import type { ToolOutput, ToolUseContext } from '../tools/tool';
import type { SkillDefinition } from './definition';
import { SkillGrants } from './grants';
import { expandBody, SKILL_LISTING_CHARS, skillListing, skillTool } from './skill-tool';

function skill(name: string, over: Partial<SkillDefinition> = {}): SkillDefinition {
  return {
    name,
    description: `the ${name} skill`,
    allowedTools: [],
    argumentHint: null,
    modelInvocable: true,
    body: `Do ${name}.`,
    baseDir: null,
    source: 'user',
    file: null,
    ...over,
  };
}

async function run(tool: ReturnType<typeof skillTool>, input: object): Promise<ToolOutput> {
  const gen = tool.call((tool.inputSchema as z.ZodType).parse(input), {} as ToolUseContext);
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
  }
}

const texts = (o: ToolOutput) =>
  typeof o.content === 'string' ? [o.content] : o.content.map((b) => (b.type === 'text' ? b.text : ''));

describe('skillListing', () => {
  it('lists name and description, leaves out what the model may not run, and caps by characters', () => {
    const many = Array.from({ length: 300 }, (_, i) => skill(`s${i}`, { description: 'x'.repeat(400) }));
    const text = skillListing([skill('hidden', { modelInvocable: false }), ...many]);
    expect(text).not.toContain('hidden');
    expect(text).toContain(`- s0: ${'x'.repeat(249)}…`);
    expect(text.length).toBeLessThan(SKILL_LISTING_CHARS + 200);
    const listed = text.split('\n').filter((l) => l.startsWith('- ')).length;
    expect(text).toContain(`(${300 - listed} more skills not listed`);
  });
});

describe('expandBody', () => {
  it('fills in $ARGUMENTS and the skill folder, and appends arguments the body does not place', () => {
    const placed = skill('a', { body: 'Scope: $ARGUMENTS in ${CLAUDE_SKILL_DIR}', baseDir: '/s/a' });
    expect(expandBody(placed, 'main')).toBe('Scope: main in /s/a');
    expect(expandBody(skill('b'), 'x y')).toBe('Do b.\n\nARGUMENTS: x y');
    expect(expandBody(skill('b'), undefined)).toBe('Do b.');
  });
});

describe('Skill tool', () => {
  it('loads the body and the folder’s files, and grants a user skill’s allowed-tools until cleared', async () => {
    const dir = tempDir('carapace-skill-');
    writeFileSync(path.join(dir, 'SKILL.md'), 'x');
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(path.join(dir, 'scripts', 'check.sh'), 'echo');
    writeFileSync(path.join(dir, 'bad\nname'), 'forged');
    const grants = new SkillGrants('/p');
    const tool = skillTool({
      catalog: () => ({
        skills: [skill('deploy', { baseDir: dir, allowedTools: ['Write', 'Bash(make:*)'] })],
        problems: [],
      }),
      grants,
      projectRoot: '/p',
    });
    expect(tool.description).toContain('- deploy: the deploy skill');
    const out = await run(tool, { skill: '/deploy', args: 'prod' });
    expect(out.isError).toBeUndefined();
    const [head, body] = texts(out);
    expect(head).toBe('Launching skill: deploy');
    expect(body).toContain(`Base directory for this skill: ${dir}`);
    expect(body).toContain('- scripts/check.sh');
    expect(body).not.toContain('forged');
    expect(body).not.toContain('bad');
    expect(body).toContain('Do deploy.\n\nARGUMENTS: prod');
    expect(grants.rules().map((r) => [r.source, r.behavior, r.text])).toEqual([
      ['session', 'allow', 'Write'],
      ['session', 'allow', 'Bash(make:*)'],
    ]);
    grants.clear();
    expect(grants.rules()).toEqual([]);
  });

  it('grants a project skill only the rules the folder’s trust accepted', async () => {
    const grants = new SkillGrants('/p');
    const tool = skillTool({
      catalog: () => ({
        skills: [skill('p', { source: 'project', allowedTools: ['Write', 'Read'] })],
        problems: [],
      }),
      grants,
      projectRoot: '/p',
      trust: { accepted: () => new Set(['allow:Read']), accept: () => undefined },
    });
    const out = await run(tool, { skill: 'p' });
    expect(texts(out)[1]).toContain('Not pre-approved (this project');
    expect(grants.rules().map((r) => r.text)).toEqual(['Read']);
  });

  it('answers an unknown or person-only skill with an error naming what exists', async () => {
    const tool = skillTool({
      catalog: () => ({ skills: [skill('a'), skill('mine', { modelInvocable: false })], problems: [] }),
      grants: new SkillGrants('/p'),
      projectRoot: '/p',
    });
    expect(await run(tool, { skill: 'nope' })).toEqual({
      content: 'There is no skill "nope". Available: a.',
      isError: true,
    });
    expect((await run(tool, { skill: 'mine' })).content).toContain('cannot be used by the model');
  });
});
