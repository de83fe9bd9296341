import { describe, expect, it } from 'vitest';
import { own, parseYamlFrontmatter } from './parse-yaml-frontmatter';
import { ruleList } from './rule-list';
import { splitFrontmatter } from './split-frontmatter';

const messages = { notAList: 'not a list', notText: (found: string) => `not text: ${found}` };

describe('splitFrontmatter', () => {
  it('drops a BOM, turns CRLF into LF and splits at the fences', () => {
    expect(splitFrontmatter('\uFEFF---  \r\na: 1\r\n---\r\nbody\r\n')).toEqual({
      yaml: 'a: 1',
      body: 'body\n',
    });
  });
  it('takes a file without an opening fence as all body, and reports an unclosed one', () => {
    expect(splitFrontmatter('# Title\r\ntext')).toEqual({ yaml: null, body: '# Title\ntext' });
    expect(splitFrontmatter('---\na: 1\n')).toBe('its frontmatter is not closed by a --- line');
  });
});

describe('parseYamlFrontmatter', () => {
  it('stops an alias bomb and says the YAML is not valid', () => {
    const bomb = ['a: &a [x, x]', ...Array.from({ length: 60 }, (_, i) => `k${i}: [*a, *a]`)].join('\n');
    const r = parseYamlFrontmatter(bomb, { example: 'name', allowEmpty: false });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^its frontmatter is not valid YAML \(/);
  });
  it('takes empty YAML as no keys only when allowed, and refuses a list', () => {
    expect(parseYamlFrontmatter('# only a comment', { example: 'name', allowEmpty: true })).toEqual({
      ok: true,
      keys: {},
    });
    expect(parseYamlFrontmatter('# only a comment', { example: 'name', allowEmpty: false })).toEqual({
      ok: false,
      reason: 'its frontmatter must be YAML keys (name, …)',
    });
    expect(parseYamlFrontmatter('- a', { example: 'name', allowEmpty: true }).ok).toBe(false);
  });
  it('does not read inherited keys', () => {
    expect(own({}, 'constructor')).toBeUndefined();
  });
});

describe('ruleList', () => {
  it('keeps commas and spaces inside parentheses with their entry, and drops repeats', () => {
    const errors: string[] = [];
    expect(ruleList('Bash(git add:*, x), Read,, Read', messages, errors)).toEqual([
      'Bash(git add:*, x)',
      'Read',
    ]);
    expect(
      ruleList('Read Bash(git log --oneline *)', { ...messages, splitOnWhitespace: true }, errors),
    ).toEqual(['Read', 'Bash(git log --oneline *)']);
    expect(ruleList('Read Grep', messages, errors)).toEqual(['Read Grep']);
    expect(errors).toEqual([]);
  });
  it('is null when absent and reports a value that is no list, or an entry that is no text', () => {
    const errors: string[] = [];
    expect(ruleList(undefined, messages, errors)).toBeNull();
    ruleList(3, messages, errors);
    ruleList(['Read', { a: 1 }], messages, errors);
    expect(errors).toEqual(['not a list', 'not text: {"a":1}']);
  });
  it('applies the caps and the per-entry check', () => {
    const errors: string[] = [];
    ruleList(['x'.repeat(6)], { ...messages, maxEntryLength: { limit: 5, message: 'too long' } }, errors);
    ruleList('a, b, c', { ...messages, maxEntries: { limit: 2, message: 'too many' } }, errors);
    const kept = ruleList(
      'ok, bad, ok2',
      { ...messages, check: (e) => (e === 'bad' ? 'bad rule' : null) },
      errors,
    );
    expect(kept).toEqual(['ok', 'ok2']);
    expect(errors).toEqual(['too long', 'too many', 'bad rule']);
  });
});
