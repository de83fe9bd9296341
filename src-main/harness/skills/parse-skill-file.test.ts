import { describe, expect, it } from 'vitest';
import { parseSkillFile } from './parse-skill-file';

const at = {
  folderName: 'thing',
  baseDir: '/p/.claude/skills/thing',
  file: '/p/.claude/skills/thing/SKILL.md',
  source: 'project' as const,
};

describe('parseSkillFile', () => {
  it('reads allowed-tools as a comma list, a space list or a YAML list, keeping rules whole', () => {
    const comma = parseSkillFile(
      '---\ndescription: d\nallowed-tools: Read, Bash(git log --oneline *), Grep\n---\nbody',
      at,
    );
    expect(comma.ok && comma.skill.allowedTools).toEqual(['Read', 'Bash(git log --oneline *)', 'Grep']);
    const spaces = parseSkillFile('---\ndescription: d\nallowed-tools: Read Bash(git diff:*)\n---\nbody', at);
    expect(spaces.ok && spaces.skill.allowedTools).toEqual(['Read', 'Bash(git diff:*)']);
    const list = parseSkillFile('---\ndescription: d\nallowed-tools:\n  - Write\n  - Edit\n---\nbody', at);
    expect(list.ok && list.skill.allowedTools).toEqual(['Write', 'Edit']);
  });

  it('refuses the whole file for a rule the permission system could not use', () => {
    const r = parseSkillFile('---\ndescription: d\nallowed-tools: Bash()\n---\nbody', at);
    expect(r).toEqual({
      ok: false,
      message: expect.stringContaining('Permission rule "Bash()" is not valid'),
    });
  });

  it('gathers every fault into one message', () => {
    const r = parseSkillFile('---\nname: 7\ndisable-model-invocation: "yes"\nargument-hint: [1]\n---\n', at);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toContain('name must be text');
      expect(r.message).toContain('disable-model-invocation must be true or false');
      expect(r.message).toContain('argument-hint must be text');
      expect(r.message).toContain('the body');
    }
  });

  it('keeps a skill the person runs themselves out of the model’s reach', () => {
    const r = parseSkillFile('---\ndescription: d\ndisable-model-invocation: true\n---\nbody', at);
    expect(r.ok && r.skill.modelInvocable).toBe(false);
  });

  it('survives an alias bomb in the frontmatter', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      bomb.push(
        `${'b'.repeat(i)}: &${'b'.repeat(i)} [${Array(9)
          .fill(i === 1 ? '*a' : `*${'b'.repeat(i - 1)}`)
          .join(', ')}]`,
      );
    const r = parseSkillFile(`---\n${bomb.join('\n')}\n---\nbody`, at);
    expect(r).toEqual({
      ok: false,
      message: expect.stringMatching(/^Not loaded: its frontmatter is not valid YAML/),
    });
  });
});
