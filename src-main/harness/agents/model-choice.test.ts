import { describe, expect, it } from 'vitest';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import { subagentModel } from './model-choice';

const sonnet = 'claude-sonnet-4-5';

describe('a sub-agent’s model', () => {
  it('follows the variable, then the call, then the definition, then the parent', () => {
    expect(subagentModel({ parentModel: sonnet, definitionModel: 'inherit' })).toBe(sonnet);
    expect(subagentModel({ parentModel: sonnet, definitionModel: 'haiku' })).toBe('claude-haiku-4-5');
    expect(subagentModel({ parentModel: sonnet, definitionModel: 'haiku', requested: 'opus' })).toBe(
      'claude-opus-4-5',
    );
    expect(
      subagentModel({
        parentModel: sonnet,
        definitionModel: 'haiku',
        requested: 'opus',
        env: { CLAUDE_CODE_SUBAGENT_MODEL: 'claude-haiku-4-5' },
      }),
    ).toBe('claude-haiku-4-5');
  });

  it('keeps a demo session on the demo model, whatever is asked', () => {
    for (const requested of ['opus', 'claude-opus-4-5', 'sonnet'])
      expect(
        subagentModel({
          parentModel: DEMO_MODEL_ID,
          definitionModel: 'opus',
          definitionSource: 'user',
          requested,
          env: { CLAUDE_CODE_SUBAGENT_MODEL: 'opus' },
        }),
      ).toBe(DEMO_MODEL_ID);
  });

  it('lets a project’s agent file choose a cheaper model than the parent’s, never a dearer or an unknown one', () => {
    const fromProject = (definitionModel: string, parentModel = sonnet) =>
      subagentModel({ parentModel, definitionModel, definitionSource: 'project' });
    expect(fromProject('haiku')).toBe('claude-haiku-4-5');
    expect(fromProject('sonnet')).toBe(sonnet);
    expect(fromProject('opus')).toBe(sonnet);
    expect(fromProject('claude-opus-4-1')).toBe(sonnet);
    expect(fromProject('sonnet', 'claude-haiku-4-5')).toBe('claude-haiku-4-5');
    expect(fromProject('some-unpriced-model')).toBe(sonnet);
    // The person's own files and the person's (or the model's) explicit choice are not limited.
    expect(subagentModel({ parentModel: sonnet, definitionModel: 'opus', definitionSource: 'user' })).toBe(
      'claude-opus-4-5',
    );
    expect(
      subagentModel({
        parentModel: sonnet,
        definitionModel: 'opus',
        definitionSource: 'project',
        requested: 'opus',
      }),
    ).toBe('claude-opus-4-5');
  });
});
