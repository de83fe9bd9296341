import { describe, expect, it } from 'vitest';
import { splitTools } from './NewAgentForm';

describe('splitTools', () => {
  it('splits at commas outside parentheses and drops empty entries', () => {
    expect(splitTools(' Read, Grep ,, Bash(git log --oneline *, git diff *) ,')).toEqual([
      'Read',
      'Grep',
      'Bash(git log --oneline *, git diff *)',
    ]);
    expect(splitTools('   ')).toEqual([]);
  });
  it('keeps an unbalanced closing parenthesis from swallowing the rest', () => {
    expect(splitTools('Read), Grep')).toEqual(['Read)', 'Grep']);
  });
});
