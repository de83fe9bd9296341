import { describe, expect, it } from 'vitest';
import { parseRuleFrontmatter } from './rule-frontmatter';

describe('parseRuleFrontmatter', () => {
  it('reads paths as a YAML list and returns the body without the block', () => {
    const r = parseRuleFrontmatter('---\npaths:\n  - "src/api/**/*.ts"\n  - lib/*.js\n---\nUse zod.\n');
    expect(r).toEqual({ body: 'Use zod.\n', paths: ['src/api/**/*.ts', 'lib/*.js'], error: null });
  });

  it('reads paths as one comma-separated string', () => {
    expect(parseRuleFrontmatter('---\npaths: "a/**, b/*.md"\n---\nx').paths).toEqual(['a/**', 'b/*.md']);
  });

  it('has no paths without frontmatter, or with frontmatter that names none', () => {
    expect(parseRuleFrontmatter('# Rule\ntext')).toEqual({ body: '# Rule\ntext', paths: null, error: null });
    expect(parseRuleFrontmatter('---\ndescription: x\n---\nbody').paths).toBeNull();
    expect(parseRuleFrontmatter('---\npaths: []\n---\nbody').paths).toBeNull();
  });

  it('reports broken YAML instead of throwing, and the rule then has no paths', () => {
    const r = parseRuleFrontmatter('---\npaths: [unclosed\n---\nbody');
    expect(r.paths).toBeNull();
    expect(r.body).toBe('body');
    expect(r.error).toMatch(/./);
    expect(parseRuleFrontmatter('---\n- a list\n---\nbody').error).toMatch(/key: value/);
  });
});
