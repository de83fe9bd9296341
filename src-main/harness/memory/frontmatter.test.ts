import { describe, expect, it } from 'vitest';
import { formatMemoryFile, parseMemoryFile } from './frontmatter';

const feedback = `---
name: tabs
description: "Indent: tabs, never spaces"
type: feedback
---

Use tabs.

**Why:** the linter rejects spaces.
**How to apply:** every new file.
`;

describe('parseMemoryFile', () => {
  it('reads the frontmatter, body and reasons of a valid memory', () => {
    const r = parseMemoryFile(feedback);
    expect(r.ok).toBe(true);
    expect(r.memory).toMatchObject({
      name: 'tabs',
      description: 'Indent: tabs, never spaces',
      type: 'feedback',
      why: 'the linter rejects spaces.',
      howToApply: 'every new file.',
    });
    expect(r.memory.body.startsWith('Use tabs.')).toBe(true);
  });

  it('accepts a user memory without reasons', () => {
    expect(parseMemoryFile('---\nname: me\ndescription: who I am\ntype: user\n---\nI like Go.\n').ok).toBe(
      true,
    );
  });

  it('requires the frontmatter block', () => {
    const r = parseMemoryFile('just text');
    expect(r.errors).toEqual([expect.objectContaining({ field: 'frontmatter', code: 'missing' })]);
  });

  it('reports YAML that does not parse and frontmatter that is not a mapping', () => {
    expect(parseMemoryFile('---\nname: [unclosed\n---\n').errors[0]).toMatchObject({ code: 'invalid-yaml' });
    expect(parseMemoryFile('---\n- a\n- b\n---\n').errors[0]).toMatchObject({ code: 'not-a-mapping' });
  });

  it('reports each field on its own', () => {
    const r = parseMemoryFile('---\nname: 5\ntype: opinion\n---\nbody\n');
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => [e.field, e.code])).toEqual([
      ['name', 'not-a-string'],
      ['description', 'required'],
      ['type', 'invalid-type'],
    ]);
  });

  it('requires Why and How to apply for feedback and project memories', () => {
    const r = parseMemoryFile('---\nname: n\ndescription: d\ntype: project\n---\nShip on Friday.\n');
    expect(r.errors.map((e) => e.field)).toEqual(['why', 'howToApply']);
    expect(r.memory.type).toBe('project');
  });
});

describe('formatMemoryFile', () => {
  it('round-trips through the YAML library, quoting what needs quoting', () => {
    const text = formatMemoryFile({
      name: 'tabs',
      description: '# not a comment: really',
      type: 'feedback',
      body: 'Use tabs.\n',
      why: 'the linter',
      howToApply: 'always',
    });
    const back = parseMemoryFile(text);
    expect(back.ok).toBe(true);
    expect(back.memory).toMatchObject({
      description: '# not a comment: really',
      why: 'the linter',
      howToApply: 'always',
    });
    expect(text).toMatch(/^---\nname: tabs\n/);
  });

  it('replaces existing reason lines in place rather than adding twice', () => {
    const parsed = parseMemoryFile(feedback);
    const text = formatMemoryFile({ ...parsed.memory, why: 'changed' });
    expect(text.match(/\*\*Why:\*\*/g)).toHaveLength(1);
    expect(parseMemoryFile(text).memory.why).toBe('changed');
  });
});
