import { describe, expect, it } from 'vitest';
import { parseSelection } from './parse-selection';

const offered = new Set(['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md', 'g.md', 'team/h.md']);

describe('parseSelection', () => {
  it('takes the names of the JSON answer that were offered', () => {
    expect(parseSelection('{"selected_memories": ["b.md", "team/h.md"]}', offered)).toEqual([
      'b.md',
      'team/h.md',
    ]);
  });

  it('reads JSON inside a code fence or a sentence, and a bare array', () => {
    expect(parseSelection('Here:\n```json\n{"selected_memories":["a.md"]}\n```', offered)).toEqual(['a.md']);
    expect(parseSelection('["c.md"]', offered)).toEqual(['c.md']);
  });

  it('cuts seven names to five and drops repeats', () => {
    const seven = JSON.stringify({
      selected_memories: ['a.md', 'a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md', 'g.md'],
    });
    expect(parseSelection(seven, offered)).toEqual(['a.md', 'b.md', 'c.md', 'd.md', 'e.md']);
  });

  it('ignores names that were not offered, however they are spelled', () => {
    const hostile = JSON.stringify({
      selected_memories: ['../../.ssh/id_rsa', '/etc/passwd', 'A.md', 'a.md/../b.md', 42, null, 'g.md'],
    });
    expect(parseSelection(hostile, offered)).toEqual(['g.md']);
  });

  it('selects nothing from garbage', () => {
    expect(parseSelection('I think a.md would help', offered)).toEqual([]);
    expect(parseSelection('{"selected_memories": "a.md"}', offered)).toEqual([]);
    expect(parseSelection('', offered)).toEqual([]);
    expect(parseSelection('{not json}', offered)).toEqual([]);
  });
});
