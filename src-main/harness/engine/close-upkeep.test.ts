import { expect, it } from 'vitest';
import { MemoryRecall } from '../memory/recall/memory-recall';
import { tempDir } from '../../test-support/temp';
import { testEngine, text } from '../../test-support/engine';

/*
 * A `-p` run closes its engine and exits: the first turn's memory upkeep (autoDream's session count,
 * written beside the turn) must be finished by then, or the count is lost with the process.
 */
it('close() waits for the first turn memory upkeep before it resolves', async () => {
  let finish!: () => void;
  const upkeep = new Promise<void>((resolve) => (finish = resolve));
  let upkeepDone = false;
  const recall = new MemoryRecall({
    memoryDir: tempDir('carapace-memory-'),
    enabled: () => true,
    onFirstTurn: () => upkeep.then(() => void (upkeepDone = true)),
  });
  const { engine, run } = await testEngine({ steps: [{ reply: { content: [text('Done.')] } }] }, { recall });
  expect((await run('hello')).result.terminal.reason).toBe('completed');
  expect(recall.firstTurn).not.toBeNull();

  let closed = false;
  const closing = engine.close().then(() => (closed = true));
  await new Promise((r) => setTimeout(r, 20));
  expect(closed).toBe(false);
  finish();
  await closing;
  expect(upkeepDone).toBe(true);
});
