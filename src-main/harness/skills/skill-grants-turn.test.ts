import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { text, toolUse } from '../../test-support/engine';
import { testRuntime } from '../../test-support/runtime';
import type { SkillDefinition } from './definition';

const scribe: SkillDefinition = {
  name: 'scribe',
  description: 'Writes notes.',
  allowedTools: ['Write'],
  argumentHint: null,
  modelInvocable: true,
  body: 'Write the note.',
  baseDir: null,
  source: 'user',
  file: null,
};

describe('a skill’s allowed-tools', () => {
  it('need no approval during the turn that used the skill, and ask again (here: refused) in the next', async () => {
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'first turn' },
            reply: { content: [toolUse('Skill', { skill: 'scribe' }, 's1')], stop_reason: 'tool_use' },
          },
          {
            when: { lastUserText: 'Launching skill: scribe' },
            reply: {
              content: [toolUse('Write', { file_path: 'a.txt', content: 'during' }, 'w1')],
              stop_reason: 'tool_use',
            },
          },
          {
            when: { lastUserText: 'second turn' },
            reply: {
              content: [toolUse('Write', { file_path: 'b.txt', content: 'after' }, 'w2')],
              stop_reason: 'tool_use',
            },
          },
          { times: true, reply: { content: [text('ok')] } },
        ],
      },
      // Ask mode with nobody to ask: a Write that is not pre-approved is refused.
      { mode: 'default', handler: null, overrides: { skills: () => ({ skills: [scribe], problems: [] }) } },
    );
    await t.run('first turn');
    expect(readFileSync(path.join(t.project, 'a.txt'), 'utf8')).toBe('during');
    await t.run('second turn');
    expect(existsSync(path.join(t.project, 'b.txt'))).toBe(false);
  });
});
