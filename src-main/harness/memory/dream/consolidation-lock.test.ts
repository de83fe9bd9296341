import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testEngine, toolUse } from '../../../test-support/engine';
import { tempDir } from '../../../test-support/temp';
import { acquireConsolidationLock, LOCK_FILE, lockPath } from './consolidation-lock';

const run = promisify(execFile);
const now = new Date('2026-12-03T12:00:00Z');
const lockText = (pid: number, minutesAgo: number) =>
  JSON.stringify({
    pid,
    acquiredAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
    token: 'other',
  });

describe('consolidation lock', () => {
  it('is exclusive until released', async () => {
    const dir = tempDir();
    const first = await acquireConsolidationLock(dir, { now: () => now });
    expect(first).not.toBeNull();
    const held = JSON.parse(readFileSync(lockPath(dir), 'utf8')) as { pid: number };
    expect(held.pid).toBe(process.pid);
    expect(await acquireConsolidationLock(dir, { now: () => now })).toBeNull();
    await first?.release();
    expect(existsSync(lockPath(dir))).toBe(false);
    expect(await acquireConsolidationLock(dir, { now: () => now })).not.toBeNull();
  });

  it('leaves a live holder alone while its lock is fresh', async () => {
    const dir = tempDir();
    writeFileSync(lockPath(dir), lockText(4242, 29));
    expect(await acquireConsolidationLock(dir, { now: () => now, isAlive: () => true })).toBeNull();
    expect(readFileSync(lockPath(dir), 'utf8')).toBe(lockText(4242, 29));
  });

  it('takes over the lock of a dead process', async () => {
    const dir = tempDir();
    writeFileSync(lockPath(dir), lockText(4242, 1));
    const lock = await acquireConsolidationLock(dir, { now: () => now, isAlive: (pid) => pid !== 4242 });
    expect(lock).not.toBeNull();
    expect(JSON.parse(readFileSync(lockPath(dir), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('takes over a lock older than the staleness limit even if its holder lives', async () => {
    const dir = tempDir();
    writeFileSync(lockPath(dir), lockText(4242, 31));
    expect(
      await acquireConsolidationLock(dir, { now: () => now, isAlive: () => true, staleMs: 30 * 60_000 }),
    ).not.toBeNull();
  });

  it('takes over a lock file it cannot read', async () => {
    const dir = tempDir();
    writeFileSync(lockPath(dir), 'garbage');
    expect(await acquireConsolidationLock(dir, { now: () => now })).not.toBeNull();
  });

  it('does not remove a lock someone else took over when released late', async () => {
    const dir = tempDir();
    const mine = await acquireConsolidationLock(dir, { now: () => now });
    writeFileSync(lockPath(dir), lockText(4242, 0)); // taken over as stale meanwhile
    await mine?.release();
    expect(readFileSync(lockPath(dir), 'utf8')).toBe(lockText(4242, 0));
  });

  it('lets exactly one of two racing processes consolidate', async () => {
    // The winner's reply is held at a gate, so it keeps the lock until the loser has given up: the
    // outcome does not depend on how fast the two processes start on a loaded machine.
    const t = await testEngine({
      steps: [
        {
          times: true,
          reply: {
            content: [toolUse('save_consolidated_memories', { files: [], remove: [] })],
            stop_reason: 'tool_use',
            hold: { afterEvents: 0, gate: 'winner' },
          },
        },
      ],
    });
    const dir = tempDir('carapace-memory-');
    writeFileSync(path.join(dir, 'a.md'), '---\nname: a\ndescription: a note\ntype: user\n---\nA\n');
    const root = path.resolve(__dirname, '../../../..');
    const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
    const child = path.join(__dirname, 'race-child.fixture.ts');
    // Both wait for one instant (a few seconds out: tsx takes a while to start here) to try the lock.
    const args = [
      '--tsconfig',
      path.join(root, 'tsconfig.node.json'),
      child,
      dir,
      t.api.url,
      String(Date.now() + 4000),
    ];
    type Outcome = { pid: number; ran: boolean; message: string };
    const contenders = [0, 1].map(() =>
      run(tsx, args, { cwd: root }).then((o) => JSON.parse(o.stdout.trim()) as Outcome),
    );
    // If the lock were not exclusive, both would be held at the gate and neither would give up.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = await Promise.race([
      ...contenders,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('Neither contender gave up: both took the lock.')), 30_000);
      }),
    ]);
    clearTimeout(timer);
    expect(first.ran).toBe(false);
    expect(first.message).toMatch(/Another Carapace process is consolidating/);
    t.api.release('winner');
    const results = await Promise.all(contenders);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
    expect(t.api.requests).toHaveLength(1);
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  }, 60_000);
});
