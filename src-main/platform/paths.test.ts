import { describe, expect, it } from 'vitest';
import { carapaceHome, projectSlug } from './paths';

describe('paths', () => {
  it('slugs a project path the way Claude Code does', () => {
    expect(projectSlug('/home/ada/my.app')).toBe('-home-ada-my-app');
  });

  it('keeps long slugs short and distinct', () => {
    const deep = `/x/${'a'.repeat(300)}`;
    const other = `/y/${'a'.repeat(300)}`;
    expect(projectSlug(deep).length).toBeLessThanOrEqual(180);
    expect(projectSlug(deep)).not.toBe(projectSlug(other));
  });

  it('honours CARAPACE_HOME', () => {
    expect(carapaceHome({ CARAPACE_HOME: '/tmp/ch' })).toBe('/tmp/ch');
    expect(carapaceHome({})).toMatch(/\.carapace$/);
  });
});
