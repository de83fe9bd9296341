import { describe, expect, it } from 'vitest';
import { readMemory, splitFrontmatter, withField, withSection } from './frontmatter';

const feedback = [
  '---',
  'name: Tabs not spaces',
  'description: The user wants tabs in Go files',
  'type: feedback',
  '---',
  'Use tabs.',
  '',
  '**Why:** gofmt does.',
  '**How to apply:** every Go file.',
  '',
].join('\n');

describe('readMemory', () => {
  it('reads a complete feedback memory without errors', () => {
    const r = readMemory(feedback);
    expect(r.errors).toEqual({});
    expect(r.fields).toEqual({
      name: 'Tabs not spaces',
      description: 'The user wants tabs in Go files',
      type: 'feedback',
      why: 'gofmt does.',
      howToApply: 'every Go file.',
    });
  });

  it('asks feedback and project memories for Why and How to apply', () => {
    const r = readMemory(feedback.replace('**Why:** gofmt does.\n', ''));
    expect(r.errors.why).toMatch(/Why:/);
    expect(r.errors.howToApply).toBeUndefined();
    const p = readMemory(feedback.replace('type: feedback', 'type: project').replace(/\*\*How.*\n/, ''));
    expect(p.errors.howToApply).toMatch(/How to apply/);
  });

  it('does not ask user or reference memories for Why', () => {
    const r = readMemory('---\nname: a\ndescription: b\ntype: user\n---\nbody\n');
    expect(r.errors).toEqual({});
  });

  it('names each missing or wrong field', () => {
    const r = readMemory('---\ntype: opinion\n---\n');
    expect(Object.keys(r.errors).sort()).toEqual(['description', 'name', 'type']);
    expect(r.errors.type).toContain('“opinion”');
  });

  it('reports broken YAML and a missing block as typed errors, not a crash', () => {
    expect(readMemory('---\nname: [unclosed\n---\n').errors.yaml).toMatch(/not valid YAML/);
    expect(readMemory('no frontmatter here').errors.yaml).toMatch(/no frontmatter/);
    expect(readMemory('---\n- a\n- b\n---\n').errors.yaml).toMatch(/list of keys/);
  });
});

describe('withField / withSection', () => {
  it('sets one key and keeps other keys, comments and the body', () => {
    const text = '---\n# kept\nname: old\nextra: 1\n---\nBody\n';
    const out = withField(text, 'name', 'new: with colon');
    expect(splitFrontmatter(out).body).toBe('Body\n');
    expect(out).toContain('# kept');
    expect(out).toContain('extra: 1');
    expect(readMemory(out).fields.name).toBe('new: with colon');
  });

  it('adds a frontmatter block to a file without one', () => {
    const out = withField('Just a note\n', 'type', 'user');
    expect(out.startsWith('---\ntype: user\n---\n')).toBe(true);
    expect(splitFrontmatter(out).body).toBe('Just a note\n');
  });

  it('replaces or appends the Why line', () => {
    expect(withSection(feedback, 'why', 'new reason')).toContain('**Why:** new reason\n**How to apply:**');
    const added = withSection('---\ntype: feedback\n---\nText', 'why', 'because');
    expect(added.endsWith('Text\n\n**Why:** because\n')).toBe(true);
    expect(readMemory(added).fields.why).toBe('because');
  });
});
