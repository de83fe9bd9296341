import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text } from '../../test-support/engine';
import { tempDir } from '../../test-support/temp';
import { SessionMemoryPrompt } from './memory-prompt';
import { memoryDirFor } from './dir/paths';

/*
 * MEMORY.md through the real SDK and the scripted Messages API: the recorded request's system prompt
 * carries the memory section, with the index cut to its limits and the warning the cut leaves.
 */

type Recorded = Awaited<ReturnType<typeof testEngine>>['api']['requests'][number];

const systemText = (r: Recorded | undefined): string => {
  const system: unknown = r?.body.system;
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? system.map((b: { text?: string }) => b.text ?? '').join('\n') : '';
};

async function turnWithIndex(index: string | null, userSettings: Record<string, unknown> = {}) {
  const homeDir = tempDir('carapace-home-');
  const carapaceHome = path.join(homeDir, '.carapace');
  mkdirSync(carapaceHome, { recursive: true });
  writeFileSync(path.join(carapaceHome, 'settings.json'), JSON.stringify(userSettings));
  const project = tempDir('carapace-project-');
  const t = await testEngine(
    { steps: [{ reply: { content: [text('Done.')] } }, { reply: { content: [text('Again.')] } }] },
    {
      projectRoot: project,
      cwd: project,
      instructionRoots: { homeDir, carapaceHome, managedDirs: [] },
      memoryPrompt: new SessionMemoryPrompt({
        locations: { home: carapaceHome, projectRoot: project, policyFile: path.join(homeDir, 'no-policy') },
        userHome: homeDir,
        env: {},
      }),
    },
  );
  const memoryDir = memoryDirFor({ carapaceHome, projectRoot: project });
  if (index !== null) {
    mkdirSync(memoryDir, { recursive: true });
    writeFileSync(path.join(memoryDir, 'MEMORY.md'), index);
  }
  const turn = await t.run('Hello');
  expect(turn.result.terminal.reason).toBe('completed');
  return { t, memoryDir, system: systemText(t.api.requests[0]) };
}

describe('MEMORY.md in the request', () => {
  it('a 300-line index arrives cut to 200 lines with the warning', async () => {
    const index = Array.from({ length: 300 }, (_, i) => `- [m${i + 1}](m${i + 1}.md): note ${i + 1}`).join(
      '\n',
    );
    const { system, memoryDir } = await turnWithIndex(index);
    expect(system).toContain(`persistent memory directory at ${memoryDir}`);
    expect(system).toContain('- [m200](m200.md): note 200');
    expect(system).not.toContain('- [m201](m201.md)');
    expect(system).toMatch(/WARNING: MEMORY\.md is 300 lines and [\d,]+ bytes, over the limit/);
  });

  it('200 lines over 25,000 bytes arrive cut at the last whole line that fits, with the warning', async () => {
    const line = (i: number) => `- [m${String(i).padStart(3, '0')}](m.md): ${'x'.repeat(114)}`; // 130 bytes and a newline
    const index = Array.from({ length: 200 }, (_, i) => line(i + 1)).join('\n') + '\n';
    expect(Buffer.byteLength(index)).toBeGreaterThan(25_000);
    const { system } = await turnWithIndex(index);
    const kept = Math.floor(25_000 / 131);
    expect(system).toContain(line(kept));
    expect(system).not.toContain(`- [m${String(kept + 1).padStart(3, '0')}]`);
    expect(system).toMatch(/WARNING: MEMORY\.md is 200 lines and 26,200 bytes/);
  });

  it('states the types and what is never saved, and lists MEMORY.md as loaded', async () => {
    const { system, t, memoryDir } = await turnWithIndex('- [tabs](tabs.md): tabs, not spaces\n');
    expect(system).toContain('- feedback:');
    expect(system).toContain('transient task details');
    expect(system).toContain('- [tabs](tabs.md): tabs, not spaces');
    expect(t.engine.loadedContext().files).toContainEqual(
      expect.objectContaining({ scope: 'auto-memory', path: path.join(memoryDir, 'MEMORY.md') }),
    );
    // Read once, at session start: a memory saved during the session changes the next session's prompt.
    writeFileSync(path.join(memoryDir, 'MEMORY.md'), '- [new](new.md): saved mid-session\n');
    await t.run('Again');
    expect(systemText(t.api.requests[1])).toBe(system);
  });

  it('says nothing of memory when autoMemoryEnabled is false', async () => {
    const { system } = await turnWithIndex('- [tabs](tabs.md): secret index\n', { autoMemoryEnabled: false });
    expect(system).not.toContain('Auto memory');
    expect(system).not.toContain('secret index');
  });
});
