import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../model/anthropic-client';
import { testEngine, toolUse } from '../../../test-support/engine';
import { tempDir } from '../../../test-support/temp';
import { maybeAutoDream, onSessionStart, type AutoDreamDeps } from './auto-dream';
import { lockPath } from './consolidation-lock';
import { dreamStatePath, readDreamState, writeDreamState } from './dream-state';

const NOW = new Date('2026-12-03T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

/** A memory folder with one note, a scripted API that consolidates, and a session's task list. */
async function setup(state: { lastConsolidatedAt: string | null; sessionsSince: number }) {
  const t = await testEngine({
    steps: [
      {
        times: true,
        reply: {
          stop_reason: 'tool_use',
          content: [
            toolUse('save_consolidated_memories', {
              files: [{ name: 'MEMORY.md', content: '- [a](a.md) — a note\n' }],
              remove: [],
            }),
          ],
        },
      },
    ],
  });
  const dir = tempDir('carapace-memory-');
  writeFileSync(path.join(dir, 'a.md'), '---\nname: a\ndescription: a note\ntype: user\n---\nA\n');
  await writeDreamState(dir, state);
  const deps: AutoDreamDeps = {
    memoryDir: dir,
    enabled: true,
    client: new AnthropicModelClient({ apiKey: 'test', baseURL: t.api.url, maxRetries: 0 }),
    model: 'claude-sonnet-4-5',
    now: () => NOW,
    tasks: t.engine.tasks,
  };
  return { t, dir, deps };
}

describe('autoDream', () => {
  it('runs as a dream task when every gate passes, and starts counting afresh', async () => {
    const { t, dir, deps } = await setup({ lastConsolidatedAt: hoursAgo(25), sessionsSince: 5 });
    const outcome = await maybeAutoDream(deps);
    expect(outcome.started).toBe(true);
    if (!outcome.started) return;
    const [task] = t.engine.tasks.list();
    expect(task).toMatchObject({ kind: 'dream', status: 'running', id: outcome.task });
    expect(task?.id).toMatch(/^dream_/);
    const result = await outcome.done;
    expect(result.ran).toBe(true);
    expect(t.engine.tasks.list()[0]).toMatchObject({ kind: 'dream', status: 'completed' });
    expect(t.engine.tasks.list()[0]?.outputTail).toContain('Memories consolidated: 1 written');
    expect(await readDreamState(dir)).toEqual({ lastConsolidatedAt: NOW.toISOString(), sessionsSince: 0 });
    expect(t.api.requests).toHaveLength(1);
  });

  it('stops at the first gate that fails, cheapest first, without a request or a task', async () => {
    const cases: [
      string,
      Partial<AutoDreamDeps>,
      { lastConsolidatedAt: string | null; sessionsSince: number },
    ][] = [
      ['disabled', { enabled: false }, { lastConsolidatedAt: null, sessionsSince: 50 }],
      ['too-soon', {}, { lastConsolidatedAt: hoursAgo(23), sessionsSince: 50 }],
      ['too-few-sessions', {}, { lastConsolidatedAt: hoursAgo(48), sessionsSince: 4 }],
    ];
    for (const [gate, change, state] of cases) {
      const { t, deps } = await setup(state);
      const outcome = await maybeAutoDream({ ...deps, ...change });
      expect(outcome).toMatchObject({ started: false, gate });
      expect(t.api.requests).toHaveLength(0);
      expect(t.engine.tasks.list()).toHaveLength(0);
    }
  });

  it('does not run while another process holds the lock', async () => {
    const { t, dir, deps } = await setup({ lastConsolidatedAt: null, sessionsSince: 9 });
    writeFileSync(lockPath(dir), JSON.stringify({ pid: 4242, acquiredAt: NOW.toISOString(), token: 't' }));
    const outcome = await maybeAutoDream({ ...deps, lock: { isAlive: () => true } });
    expect(outcome).toMatchObject({ started: false, gate: 'locked' });
    expect(t.api.requests).toHaveLength(0);
    expect((await readDreamState(dir)).sessionsSince).toBe(9);
  });

  it('checks the gates again under the lock: another process may have just consolidated', async () => {
    const { t, dir, deps } = await setup({ lastConsolidatedAt: null, sessionsSince: 5 });
    // Another process's lock is there when this one looks; by the time it is judged (its holder
    // gone), that process has finished a consolidation: the state this one read is out of date.
    writeFileSync(lockPath(dir), JSON.stringify({ pid: 4242, acquiredAt: NOW.toISOString(), token: 't' }));
    const isAlive = () => {
      writeFileSync(
        dreamStatePath(dir),
        JSON.stringify({ lastConsolidatedAt: NOW.toISOString(), sessionsSince: 0 }),
      );
      return false;
    };
    const outcome = await maybeAutoDream({ ...deps, lock: { isAlive } });
    expect(outcome).toMatchObject({ started: false, gate: 'too-soon' });
    expect(t.api.requests).toHaveLength(0);
    expect(t.engine.tasks.list()).toHaveLength(0);
    // The lock it took over to look is given back.
    expect(existsSync(lockPath(dir))).toBe(false);
  });

  it('counts new sessions and dreams at the fifth', async () => {
    const { t, dir, deps } = await setup({ lastConsolidatedAt: hoursAgo(30), sessionsSince: 0 });
    for (let i = 1; i <= 4; i++) {
      expect(await onSessionStart(deps)).toMatchObject({ started: false, gate: 'too-few-sessions' });
      expect((await readDreamState(dir)).sessionsSince).toBe(i);
    }
    const fifth = await onSessionStart(deps);
    expect(fifth?.started).toBe(true);
    if (fifth?.started) expect((await fifth.done).ran).toBe(true);
    expect(t.api.requests).toHaveLength(1);
    expect((await readDreamState(dir)).sessionsSince).toBe(0);
  });

  it('does not count a resumed session again; print mode counts without starting a consolidation', async () => {
    const { t, dir, deps } = await setup({ lastConsolidatedAt: hoursAgo(30), sessionsSince: 4 });
    expect(await onSessionStart(deps, { resumed: true })).toMatchObject({ gate: 'too-few-sessions' });
    expect((await readDreamState(dir)).sessionsSince).toBe(4);
    expect(await onSessionStart(deps, { startDream: false })).toBeNull();
    expect((await readDreamState(dir)).sessionsSince).toBe(5);
    expect(t.api.requests).toHaveLength(0);
    expect(t.engine.tasks.list()).toHaveLength(0);
  });

  it('can be stopped like any task; the lock is released', async () => {
    const { t, dir, deps } = await setup({ lastConsolidatedAt: null, sessionsSince: 5 });
    t.api.setScenario({
      steps: [
        {
          reply: {
            content: [toolUse('save_consolidated_memories', { files: [], remove: [] })],
            hold: { afterEvents: 0, gate: 'never' },
          },
        },
      ],
    });
    const outcome = await maybeAutoDream(deps);
    if (!outcome.started || !outcome.task) throw new Error('expected a dream task');
    while (t.api.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    t.engine.tasks.kill(outcome.task);
    expect((await outcome.done).ran).toBe(false);
    expect(t.engine.tasks.list()[0]?.status).toBe('killed');
    expect((await readDreamState(dir)).sessionsSince).toBe(5);
    expect(existsSync(lockPath(dir))).toBe(false);
  });
});
