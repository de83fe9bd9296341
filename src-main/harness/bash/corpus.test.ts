import { describe, expect, it } from 'vitest';
import corpus from './corpus.json';
import { analyzeCommand } from './analyze';

describe('bash analysis corpus', () => {
  it('holds at least 150 commands: safe, plainly writing, and hiding a write', () => {
    expect(
      corpus['read-only'].length + corpus.writes.length + corpus['hides-a-write'].length,
    ).toBeGreaterThanOrEqual(150);
  });

  it.each(corpus['read-only'])('auto-allows the read-only command %j', async (command) => {
    const a = await analyzeCommand(command);
    expect(a.reasons).toEqual([]);
    expect(a.readOnly).toBe(true);
  });

  it.each([...corpus.writes, ...corpus['hides-a-write']])(
    'never auto-allows %j, and says why',
    async (command) => {
      const a = await analyzeCommand(command);
      expect(a.readOnly).toBe(false);
      expect(a.reasons.length).toBeGreaterThan(0);
    },
  );
});
