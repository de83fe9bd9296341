import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBashParser } from '../bash/tree-sitter';
import type { ToolUseBlock } from '@shared/domain/messages';
import { toolContext } from '../../test-support/tool-context';
import { testGate } from '../../test-support/gate';
import type { PermissionHandler } from '../permissions/handlers';
import { StreamingToolExecutor, type ExecutorEvent } from './streaming-tool-executor';
import { builtinTools } from '../tools/registry';

let n = 0;
const use = (name: string, input: Record<string, unknown>): ToolUseBlock => ({
  type: 'tool_use',
  id: `toolu_${++n}`,
  name,
  input,
});

function executor(ctx = toolContext(), turn = new AbortController()) {
  const gate = testGate(ctx.projectRoot);
  return {
    ex: new StreamingToolExecutor({ tools: builtinTools(), gate, context: ctx, turnSignal: turn.signal }),
    ctx,
    turn,
  };
}

/**
 * A named pipe the test holds open read-write, so a reader's open() returns at once and its read()
 * blocks until the test feeds it: a Read on it is "in progress" for exactly as long as the test wants.
 */
function fifo(dir: string, name: string): { path: string; fd: number } {
  const p = path.join(dir, name);
  execFileSync('mkfifo', [p]);
  return { path: p, fd: openSync(p, constants.O_RDWR) };
}

/** How many descriptors this process has open on `p` (the test's own counts as one). */
function openCount(p: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === p) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

const reading = (f: { path: string }) => openCount(f.path) >= 2;

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** Writes the content and closes the test's end: the reader gets the bytes, then end of file. */
function feed(f: { fd: number }, text: string): void {
  writeSync(f.fd, text);
  closeSync(f.fd);
}

async function collect(ex: StreamingToolExecutor): Promise<ExecutorEvent[]> {
  const events: ExecutorEvent[] = [];
  for await (const e of ex.results()) events.push(e);
  return events;
}

// Read-only Bash calls run in parallel once the command parser is up (sessions load it at start).
beforeAll(() => loadBashParser());

describe('StreamingToolExecutor', () => {
  it('runs 5 Reads at once and returns their results in request order', async () => {
    const { ex, ctx } = executor();
    const pipes = [1, 2, 3, 4, 5].map((i) => fifo(ctx.projectRoot, `p${i}`));
    const blocks = pipes.map((p) => use('Read', { file_path: p.path }));
    blocks.forEach((b) => ex.addTool(b));
    const done = collect(ex);
    // All five are blocked reading their pipe at the same moment: they run in parallel.
    await until(() => pipes.every(reading), 'all five reads to be in progress');
    // Finish them last-first; results still come back first-first.
    for (let i = pipes.length - 1; i >= 0; i--) feed(pipes[i]!, `content ${i + 1}\n`);
    const results = (await done).flatMap((e) => (e.type === 'tool_result' ? [e] : []));
    expect(results.map((e) => e.toolUseId)).toEqual(blocks.map((b) => b.id));
    expect(results.map((e) => e.block.content)).toEqual([1, 2, 3, 4, 5].map((i) => `     1\tcontent ${i}`));
  });

  it('makes a tool that is not concurrency-safe wait for the partition before it, and everything after wait for it', async () => {
    const { ex, ctx } = executor();
    const [a, b, c] = ['a', 'b', 'c'].map((x) => fifo(ctx.projectRoot, x)) as [
      ReturnType<typeof fifo>,
      ReturnType<typeof fifo>,
      ReturnType<typeof fifo>,
    ];
    const target = path.join(ctx.projectRoot, 'written.txt');
    const blocks = [
      use('Read', { file_path: a.path }),
      use('Read', { file_path: b.path }),
      use('Write', { file_path: target, content: 'hi' }),
      use('Read', { file_path: c.path }),
    ];
    blocks.forEach((bl) => ex.addTool(bl));
    const done = collect(ex);
    await until(() => reading(a) && reading(b), 'the first partition to start');
    await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(target)).toBe(false); // the Write waits
    expect(reading(c)).toBe(false); // and so does the Read after it
    feed(a, 'A');
    feed(b, 'B');
    await until(() => reading(c), 'the read after the write to start');
    expect(existsSync(target)).toBe(true);
    feed(c, 'C');
    const events = await done;
    expect(events.filter((e) => e.type === 'tool_start').map((e) => e.toolUseId)).toEqual(
      blocks.map((bl) => bl.id),
    );
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.toolUseId)).toEqual(
      blocks.map((bl) => bl.id),
    );
  });

  it('a failing Bash aborts its running siblings, not the turn', async () => {
    const { ex, ctx, turn } = executor();
    writeFileSync(path.join(ctx.projectRoot, 'f.txt'), 'fine\n');
    const slow = use('Bash', { command: 'sleep 30' });
    const failing = use('Bash', { command: 'ls /definitely/not/here' });
    ex.addTool(slow);
    ex.addTool(failing);
    const events = await collect(ex);
    const results = events.flatMap((e) => (e.type === 'tool_result' ? [e.block] : []));
    expect(results[0]).toMatchObject({
      tool_use_id: slow.id,
      is_error: true,
      content: expect.stringContaining('a parallel Bash call failed'),
    });
    expect(results[1]).toMatchObject({
      tool_use_id: failing.id,
      is_error: true,
      content: expect.stringContaining('No such file'),
    });
    expect(turn.signal.aborted).toBe(false);
    // The executor of the next turn works normally.
    const next = new StreamingToolExecutor({
      tools: builtinTools(),
      gate: testGate(ctx.projectRoot),
      context: ctx,
      turnSignal: turn.signal,
    });
    next.addTool(use('Read', { file_path: path.join(ctx.projectRoot, 'f.txt') }));
    expect((await collect(next)).at(-1)).toMatchObject({
      type: 'tool_result',
      block: { content: '     1\tfine' },
    });
  });

  it('turns unknown tools and invalid input into error results the model can read', async () => {
    const { ex } = executor();
    ex.addTool(use('Teleport', {}));
    ex.addTool(use('Read', { path: 'x' }));
    const results = (await collect(ex)).flatMap((e) => (e.type === 'tool_result' ? [e.block] : []));
    expect(results[0]).toMatchObject({ is_error: true, content: 'No such tool available: Teleport' });
    expect(results[1]).toMatchObject({
      is_error: true,
      content: expect.stringMatching(
        /^InputValidationError: Read was called with invalid input: .*file_path/,
      ),
    });
  });

  it('saves output over the limit to the session folder and gives the model head, tail and path', async () => {
    const { ex, ctx } = executor();
    ex.addTool(use('Bash', { command: 'seq 1 20000' }));
    const [result] = (await collect(ex)).flatMap((e) => (e.type === 'tool_result' ? [e.block] : []));
    const content = typeof result?.content === 'string' ? result.content : '';
    expect(content.length).toBeLessThan(30_000);
    expect(content).toMatch(/^1\n2\n3\n/);
    expect(content).toMatch(/19999\n20000$/);
    expect(result?.meta?.savedTo).toBe(
      path.join(ctx.sessionDir, 'tool-results', `${result?.tool_use_id ?? ''}.txt`),
    );
    expect(content).toContain(result?.meta?.savedTo ?? 'missing');
  });

  it('stops running tools when the turn is aborted and says they were interrupted', async () => {
    const { ex, turn } = executor();
    ex.addTool(use('Bash', { command: 'sleep 30' }));
    const done = collect(ex);
    await new Promise((r) => setTimeout(r, 100));
    turn.abort();
    const [result] = (await done).flatMap((e) => (e.type === 'tool_result' ? [e.block] : []));
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining('Interrupted') });
  });

  it('times a call from its approval: the wait for a person is not part of its duration', async () => {
    const ctx = toolContext();
    let asked = 0;
    let personTook = 0;
    const slowPerson: PermissionHandler = {
      resolve: async () => {
        asked++;
        const from = performance.now();
        await new Promise((r) => setTimeout(r, 600));
        personTook = performance.now() - from;
        return { behavior: 'allow', by: 'user' };
      },
    };
    const ex = new StreamingToolExecutor({
      tools: builtinTools(),
      gate: testGate(ctx.projectRoot, 'default', slowPerson),
      context: ctx,
      turnSignal: new AbortController().signal,
    });
    const before = performance.now();
    ex.addTool(use('Bash', { command: 'echo hi > made.txt' }));
    const [result] = (await collect(ex)).flatMap((e) => (e.type === 'tool_result' ? [e.block] : []));
    const whole = performance.now() - before;
    expect(asked).toBe(1);
    expect(result?.is_error).toBeUndefined();
    // The person's wait and the call's run are both inside the whole, one after the other: timed
    // from the approval, the duration fits in what the wait leaves (+1: it is rounded to a ms);
    // counting the wait, it would not. (Not "under 500 ms": a loaded machine's Bash can take that.)
    expect(result?.meta?.durationMs).toBeLessThanOrEqual(whole - personTook + 1);
  });
});
