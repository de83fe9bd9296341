import { describe, expect, it } from 'vitest';
import { builtinAgents } from './builtin-agents';

const byName = (name: string) => {
  const a = builtinAgents().find((d) => d.name === name);
  if (!a) throw new Error(`no built-in ${name}`);
  return a;
};

describe('builtinAgents', () => {
  it('offers general-purpose, Explore, Plan and Verification', () => {
    expect(builtinAgents().map((a) => a.name)).toEqual([
      'general-purpose',
      'Explore',
      'Plan',
      'Verification',
    ]);
    for (const a of builtinAgents()) {
      expect(a).toMatchObject({ source: 'built-in', file: null, canSpawn: false, permissionMode: null });
      expect(a.description.length).toBeGreaterThan(20);
      // The prompts are loaded as text, not a module path or an empty string.
      expect(a.systemPrompt.length).toBeGreaterThan(200);
      expect(a.systemPrompt).toBe(a.systemPrompt.trim());
    }
  });

  it('gives general-purpose every tool and the parent’s model', () => {
    expect(byName('general-purpose')).toMatchObject({ tools: null, model: 'inherit', readOnly: false });
    expect(byName('general-purpose').systemPrompt).toMatch(/final message is returned/);
  });

  it('makes Explore and Plan read-only with the reading tools; Explore runs on a cheaper model', () => {
    expect(byName('Explore')).toMatchObject({
      tools: ['Read', 'Glob', 'Grep', 'Bash'],
      model: 'haiku',
      readOnly: true,
      runsChecks: false,
      verdict: false,
    });
    expect(byName('Explore').systemPrompt).toMatch(/must not create, edit, delete, move or copy files/);
    expect(byName('Plan')).toMatchObject({
      tools: ['Read', 'Glob', 'Grep', 'Bash'],
      model: 'inherit',
      readOnly: true,
      runsChecks: false,
    });
    expect(byName('Plan').systemPrompt).toMatch(/plan/i);
  });

  it('makes Verification read-only but able to run checks, and asks for a verdict line', () => {
    expect(byName('Verification')).toMatchObject({
      tools: ['Read', 'Glob', 'Grep', 'Bash'],
      readOnly: true,
      runsChecks: true,
      verdict: true,
    });
    expect(byName('Verification').systemPrompt).toContain('`VERDICT: PASS` or `VERDICT: FAIL`');
  });

  it('hands out fresh objects each call', () => {
    const first = builtinAgents();
    first[1]?.tools?.push('Write');
    expect(byName('Explore').tools).not.toContain('Write');
  });
});
