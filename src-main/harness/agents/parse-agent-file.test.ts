import { describe, expect, it } from 'vitest';
import { parseAgentFile } from './parse-agent-file';

const parse = (text: string) => parseAgentFile(text, { file: '/p/.claude/agents/x.md', source: 'project' });

/** The message of a file that must not load. */
function problem(text: string): string {
  const r = parse(text);
  if (r.ok) throw new Error(`expected a problem, loaded ${r.agent.name}`);
  return r.message;
}

const file = (frontmatter: string, body = 'You review code.') => `---\n${frontmatter}\n---\n${body}\n`;

describe('parseAgentFile', () => {
  it('reads every field Carapace uses, ignores the ones it does not, and takes the body as the prompt', () => {
    const r = parse(
      file(
        [
          'name: code-reviewer',
          'description: Reviews a diff for bugs.',
          'tools: Read, Grep,  Glob ,Bash',
          'disallowedTools: [Write]',
          'model: sonnet',
          'permissionMode: plan',
          'maxTurns: 12',
          'color: blue',
          'skills: [x]',
          'hooks: { PreToolUse: [] }',
        ].join('\n'),
        '\n\n  You are a careful reviewer.\n\nReport issues by file.  \n\n',
      ),
    );
    expect(r).toEqual({
      ok: true,
      agent: {
        name: 'code-reviewer',
        description: 'Reviews a diff for bugs.',
        tools: ['Read', 'Grep', 'Glob', 'Bash'],
        disallowedTools: ['Write'],
        model: 'sonnet',
        permissionMode: 'plan',
        maxTurns: 12,
        systemPrompt: 'You are a careful reviewer.\n\nReport issues by file.',
        source: 'project',
        file: '/p/.claude/agents/x.md',
        readOnly: false,
        runsChecks: false,
        canSpawn: false,
        verdict: false,
      },
    });
  });

  it('defaults: all tools, the parent’s model and mode, the loop’s turn limit', () => {
    const r = parse(file('name: a\ndescription: d'));
    expect(r).toMatchObject({
      ok: true,
      agent: { tools: null, disallowedTools: [], model: 'inherit', permissionMode: null, maxTurns: null },
    });
  });

  it('accepts tools as a YAML list, a model id, and lets only a file listing Agent start agents', () => {
    const r = parse(
      file('name: lead\ndescription: d\ntools:\n  - Read\n  - Agent\nmodel: claude-opus-4-5-20251101'),
    );
    expect(r).toMatchObject({
      ok: true,
      agent: { tools: ['Read', 'Agent'], canSpawn: true, model: 'claude-opus-4-5-20251101' },
    });
    expect(parse(file('name: a\ndescription: d'))).toMatchObject({ agent: { canSpawn: false } });
    expect(parse(file('name: a\ndescription: d\ntools: Agent\ndisallowedTools: Agent'))).toMatchObject({
      agent: { canSpawn: false },
    });
    // Claude Code's `Agent(types)` stays one entry and grants nothing until it is understood.
    expect(parse(file('name: a\ndescription: d\ntools: Read, Agent(worker, researcher)'))).toMatchObject({
      agent: { tools: ['Read', 'Agent(worker, researcher)'], canSpawn: false },
    });
  });

  it('reads Windows line endings, a byte-order mark and trailing spaces after the fences', () => {
    expect(parse('\uFEFF---  \r\nname: a\r\ndescription: d\r\n--- \r\nBody\r\n')).toMatchObject({
      ok: true,
      agent: { name: 'a', systemPrompt: 'Body' },
    });
  });

  it('refuses a file without frontmatter, or whose frontmatter is not closed', () => {
    expect(problem('# Just notes\n')).toMatch(/^Not loaded: it does not start with frontmatter/);
    expect(problem('\n---\nname: a\ndescription: d\n---\nx')).toMatch(/does not start with frontmatter/);
    expect(problem('---\nname: a\ndescription: d\nbody')).toBe(
      'Not loaded: its frontmatter is not closed by a --- line.',
    );
  });

  it('refuses YAML that does not parse, is not a mapping, repeats a key, or is an alias bomb', () => {
    expect(problem(file('name: [a\ndescription: d'))).toMatch(
      /^Not loaded: its frontmatter is not valid YAML \(/,
    );
    expect(problem(file('- a\n- b'))).toMatch(/must be YAML keys/);
    expect(problem(file(''))).toMatch(/must be YAML keys/);
    expect(problem(file('name: a\nname: b\ndescription: d'))).toMatch(/not valid YAML/);
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from({ length: 12 }, (_, i) => {
        const prev = i === 0 ? 'a' : `l${i - 1}`;
        return `l${i}: &l${i} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`;
      }),
      'name: a',
      'description: d',
    ].join('\n');
    expect(problem(file(bomb))).toMatch(/not valid YAML \(Excessive alias count/);
  });

  it('checks the name: required, text, lowercase letters, digits and hyphens, no leading hyphen', () => {
    expect(problem(file('description: d'))).toBe('Not loaded: name is missing.');
    expect(problem(file('name: 42\ndescription: d'))).toBe('Not loaded: name must be text.');
    for (const bad of ['My-Agent', '-x', '"a:b"', 'a b', 'a_b', 'é', '""', 'x'.repeat(101)])
      expect(problem(file(`name: ${bad}\ndescription: d`)), bad).toMatch(
        /must be lowercase letters, digits and hyphens/,
      );
    for (const good of ['a', 'x9', 'code-reviewer-2', '9lives'])
      expect(parse(file(`name: ${good}\ndescription: d`)), good).toMatchObject({ ok: true });
  });

  it('checks the other fields’ types and values', () => {
    expect(problem(file('name: a'))).toBe('Not loaded: description is missing.');
    expect(problem(file('name: a\ndescription: "  "'))).toBe('Not loaded: description is empty.');
    expect(problem(file('name: a\ndescription: [x]'))).toBe('Not loaded: description must be text.');
    expect(problem(file('name: a\ndescription: d\ntools: 3'))).toMatch(
      /tools must be a comma-separated list/,
    );
    expect(problem(file('name: a\ndescription: d\ntools: [Read, {x: 1}]'))).toMatch(
      /tools may contain only tool names/,
    );
    expect(problem(file('name: a\ndescription: d\ndisallowedTools: true'))).toMatch(
      /disallowedTools must be/,
    );
    expect(problem(file('name: a\ndescription: d\nmodel: 4'))).toMatch(
      /model must be sonnet, opus, haiku, inherit or a model id/,
    );
    expect(problem(file('name: a\ndescription: d\nmodel: "two words"'))).toMatch(/model must be/);
    expect(problem(file('name: a\ndescription: d\npermissionMode: yolo'))).toMatch(
      /permissionMode must be one of default, acceptEdits, plan, bypassPermissions, dontAsk/,
    );
    for (const bad of ['0', '-1', '1.5', '"5"', 'many'])
      expect(problem(file(`name: a\ndescription: d\nmaxTurns: ${bad}`)), bad).toMatch(
        /maxTurns must be a whole number above 0/,
      );
    expect(problem(file('name: a\ndescription: d', '  \n\n'))).toMatch(/the body .* is empty/);
  });

  it('lists every fault at once', () => {
    expect(problem(file('name: Bad\nmaxTurns: 0', ''))).toBe(
      'Not loaded: name "Bad" must be lowercase letters, digits and hyphens, not start with a hyphen, and be at most 100 characters; description is missing; maxTurns must be a whole number above 0; the body (the agent’s system prompt, below the frontmatter) is empty.',
    );
  });

  it('reads only the file’s own keys, whatever a __proto__ key says', () => {
    expect(problem(file('__proto__: { name: evil, description: d }'))).toBe(
      'Not loaded: name is missing; description is missing.',
    );
  });
});
