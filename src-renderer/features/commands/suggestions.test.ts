import { describe, expect, it } from 'vitest';
import type { CustomCommandInfo } from '@shared/ipc/contract/commands';
import { completionQuery, findModel, suggestionsFor } from './suggestions';

const custom = (name: string, scope: 'project' | 'user' = 'project'): CustomCommandInfo => ({
  name,
  scope,
  description: `does ${name}`,
  argumentHint: null,
  model: null,
  allowedTools: [],
});
const models = [
  { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5', demo: false },
  { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', demo: false },
  { id: 'demo', label: 'Demo model', demo: true },
];

describe('completionQuery', () => {
  it('completes a name being typed, a model after /model, and nothing else', () => {
    expect(completionQuery('/')).toEqual({ kind: 'command', query: '' });
    expect(completionQuery('/co')).toEqual({ kind: 'command', query: 'co' });
    expect(completionQuery('/model ha')).toEqual({ kind: 'model', query: 'ha' });
    expect(completionQuery('/fix-issue 42')).toBeNull();
    expect(completionQuery('hello /co')).toBeNull();
    expect(completionQuery('/co\nmore')).toBeNull();
  });
});

describe('suggestionsFor', () => {
  const names = (draft: string) =>
    suggestionsFor(draft, [custom('fix-issue'), custom('frontend:component'), custom('cost')], models).map(
      (s) => (s.kind === 'command' ? s.name : s.id),
    );
  it('filters as you type: prefix first, then a namespace part, then contains', () => {
    expect(names('/co')).toEqual(['compact', 'cost', 'frontend:component']);
    expect(names('/fix')).toEqual(['fix-issue']);
    expect(names('/nothing-like-this')).toEqual([]);
  });
  it('lists built-ins and custom commands; a custom one shadowed by a built-in is not offered twice', () => {
    const all = names('/');
    expect(all).toContain('model');
    expect(all).toContain('fix-issue');
    expect(all.filter((n) => n === 'cost')).toHaveLength(1);
    expect(all).toContain('rewind');
  });
  it('after /model lists the models matching', () => {
    expect(names('/model ')).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5', 'demo']);
    expect(names('/model hai')).toEqual(['claude-haiku-4-5']);
  });
});

describe('findModel', () => {
  it('by id, label or a part of the id', () => {
    expect(findModel(models, 'claude-haiku-4-5')?.id).toBe('claude-haiku-4-5');
    expect(findModel(models, 'demo model')?.id).toBe('demo');
    expect(findModel(models, 'sonnet')?.id).toBe('claude-sonnet-4-5');
    expect(findModel(models, 'gpt')).toBeNull();
  });
});
