import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '@shared/domain/session';
import type { SearchHit } from '@shared/ipc/contract/search';
import type { PaletteCommand } from './commands';
import { paletteEntries, parseInput } from './palette-entries';

const session = (id: string, title: string) => ({ id, title }) as SessionSummary;
const command = (id: string, label: string): PaletteCommand => ({ id, label, run: () => undefined });
const hit = (itemId: string, agent: SearchHit['agent'] = null): SearchHit => ({
  projectId: 'p',
  projectPath: '/p',
  projectName: 'p',
  sessionId: 's1',
  sessionTitle: 'Fix the parser',
  itemId,
  toolUseId: null,
  kind: 'assistant',
  at: '2026-06-01T00:00:00.000Z',
  model: null,
  isError: false,
  agent,
  snippet: { text: 'x', highlights: [] },
});

const sessions = [session('s1', 'Fix the parser'), session('s2', 'Cost report colours')];
const commands = [command('cost', 'Cost dashboard'), command('new', 'New session')];

describe('palette entries', () => {
  it('reads the prefixes: > commands only, # messages only', () => {
    expect(parseInput('  > cost ')).toEqual({ mode: 'commands', text: 'cost' });
    expect(parseInput('#parser error')).toEqual({ mode: 'messages', text: 'parser error' });
    expect(parseInput(' parser ')).toEqual({ mode: 'all', text: 'parser' });
  });

  it('lists sessions, then commands, then messages, each matching every typed word', () => {
    const all = paletteEntries('cost', sessions, commands, [hit('m1')]);
    expect(all.map((e) => e.key)).toEqual(['s:s2', 'c:cost', 'h:s1:m1::assistant']);
    expect(paletteEntries('> cost', sessions, commands, [hit('m1')]).map((e) => e.key)).toEqual(['c:cost']);
    expect(paletteEntries('# cost', sessions, commands, [hit('m1')]).map((e) => e.key)).toEqual([
      'h:s1:m1::assistant',
    ]);
    expect(paletteEntries('parser fix', sessions, commands, []).map((e) => e.key)).toEqual(['s:s1']);
    // Nothing typed: the sessions and every command.
    expect(paletteEntries('', sessions, commands, [])).toHaveLength(4);
  });

  it('keys a sub-agent’s pieces by their own message: several share the call they show under', () => {
    const agent = (itemId: string) => ({
      agentId: 'agent-1',
      name: 'explore',
      agentType: 'Explore',
      itemId,
      toolUseId: null,
      call: true,
      path: ['agent-1'],
    });
    const keys = paletteEntries(
      '# x',
      [],
      [],
      [hit('call-msg', agent('a')), hit('call-msg', agent('b'))],
    ).map((e) => e.key);
    expect(new Set(keys).size).toBe(2);
  });
});
