import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp';
import { EventHub } from './event-hub';
import { TerminalManager } from './terminals';

let managers: TerminalManager[] = [];
afterEach(() => {
  for (const m of managers) m.closeAll();
  managers = [];
});

function setup(o: { highWater?: number; lowWater?: number } = {}) {
  const hub = new EventHub();
  const data = new Map<string, string>();
  const exits: { terminalId: string; exitCode: number }[] = [];
  let events = 0;
  hub.subscribe((event, payload) => {
    if (event === 'terminal.data') {
      const p = payload as { terminalId: string; data: string };
      data.set(p.terminalId, (data.get(p.terminalId) ?? '') + p.data);
      events++;
    }
    if (event === 'terminal.exit') exits.push(payload as { terminalId: string; exitCode: number });
  });
  const m = new TerminalManager(hub, { env: { ...process.env, SHELL: '/bin/bash' }, ...o });
  managers.push(m);
  return { m, output: (id: string) => data.get(id) ?? '', exits, events: () => events };
}

describe('TerminalManager (real PTY, real headless xterm)', () => {
  it('runs the user shell in the project folder, streams output, and redraws it for a new viewer', async () => {
    const { m, output } = setup();
    const dir = tempDir();
    const first = await m.open('s1', dir, 80, 24);
    m.input(first.terminalId, 'echo "hi-$((6*7))"; pwd\r');
    await expect.poll(() => output(first.terminalId), { timeout: 10_000 }).toContain('hi-42');
    await expect.poll(() => output(first.terminalId), { timeout: 10_000 }).toContain(dir);
    // The same session gets the same terminal; the snapshot holds the screen so far.
    m.detach(first.terminalId);
    const again = await m.open('s1', dir, 100, 30);
    expect(again.terminalId).toBe(first.terminalId);
    expect(again.snapshot).toContain('hi-42');
    expect(again.offset).toBe(m.state(first.terminalId).offset);
    expect(m.find('s1')).toBe(first.terminalId);
    expect(m.find('other')).toBeNull();
  });

  it('pauses a flooding command while the viewer is behind, resumes on acknowledgement, and Ctrl+C still gets through', async () => {
    const { m, output } = setup({ highWater: 64 * 1024, lowWater: 16 * 1024 });
    const t = await m.open('s1', tempDir(), 80, 24);
    m.input(t.terminalId, 'yes\r');
    await expect.poll(() => m.state(t.terminalId).paused, { timeout: 10_000 }).toBe(true);
    const stalled = m.state(t.terminalId).offset;
    await new Promise((r) => setTimeout(r, 300));
    // Paused: output stopped growing beyond what was already read (one read's worth at most).
    expect(m.state(t.terminalId).offset - stalled).toBeLessThan(128 * 1024);
    m.ack(t.terminalId, m.state(t.terminalId).unacked);
    expect(m.state(t.terminalId).paused).toBe(false);
    await expect
      .poll(() => m.state(t.terminalId).offset, { timeout: 10_000 })
      .toBeGreaterThan(stalled + 64 * 1024);
    // Keep acknowledging, interrupt, and see the prompt come back.
    const drain = setInterval(() => m.ack(t.terminalId, m.state(t.terminalId).unacked), 5);
    try {
      m.input(t.terminalId, '\x03');
      m.input(t.terminalId, 'echo "after-$((1+1))"\r');
      await expect.poll(() => output(t.terminalId).slice(-2000), { timeout: 10_000 }).toContain('after-2');
    } finally {
      clearInterval(drain);
    }
  });

  it('sends nothing without a viewer, yet keeps the screen up to date', async () => {
    const { m, events } = setup();
    const t = await m.open('s1', tempDir(), 80, 24);
    m.detach(t.terminalId);
    const before = events();
    m.input(t.terminalId, 'echo "unseen-$((2*3))"\r');
    await expect.poll(() => m.screenText(t.terminalId), { timeout: 10_000 }).toMatch(/^unseen-6$/m);
    expect(events()).toBe(before);
    expect((await m.open('s1', tempDir(), 80, 24)).snapshot).toContain('unseen-6');
  });

  it('a viewer that re-attaches during a flood starts with a clean flow-control count', async () => {
    const { m } = setup({ highWater: 64 * 1024, lowWater: 16 * 1024 });
    const t = await m.open('s1', tempDir(), 80, 24);
    const drain = setInterval(() => m.ack(t.terminalId, m.state(t.terminalId).unacked), 2);
    try {
      m.input(t.terminalId, 'yes\r');
      await expect.poll(() => m.state(t.terminalId).offset, { timeout: 10_000 }).toBeGreaterThan(256 * 1024);
      m.detach(t.terminalId);
      const again = await m.open('s1', tempDir(), 80, 24);
      expect(m.state(again.terminalId).unacked).toBe(0);
      expect(again.offset).toBeLessThanOrEqual(m.state(again.terminalId).offset);
      m.input(t.terminalId, '\x03');
    } finally {
      clearInterval(drain);
    }
  });

  it('reports the exit code, and close ends the shell', async () => {
    const { m, exits } = setup();
    const t = await m.open('s1', tempDir(), 80, 24);
    m.input(t.terminalId, 'exit 3\r');
    await expect.poll(() => exits, { timeout: 10_000 }).toEqual([{ terminalId: t.terminalId, exitCode: 3 }]);
    expect((await m.open('s1', tempDir(), 80, 24)).exitCode).toBe(3);
    const other = await m.open('s2', tempDir(), 80, 24);
    expect(m.close(other.terminalId)).toBe(true);
    expect(m.find('s2')).toBeNull();
    expect(() => m.input(other.terminalId, 'x')).toThrow(/no terminal/);
  });
});
