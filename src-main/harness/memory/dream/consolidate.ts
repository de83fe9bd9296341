import { DEMO_MODEL_ID } from '@shared/domain/models';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { UsageReport } from '../../cost/tracker';
import type { ModelClient } from '../../model/model-client';
import { sideRequest } from '../../model/side-request';
import { MEMORY_INDEX_FILE, memoryIndexPath } from '../dir/paths';
import { memoryAgeDays, memoryAgeLabel } from '../recall/memory-age';
import { MAX_MEMORY_CHARS } from '../recall/select';
import { scanMemories } from '../recall/scan-memories';
import { applyPlan, planConsolidation } from './apply-consolidation';
import {
  CONSOLIDATE_SYSTEM_PROMPT,
  ConsolidationOutput,
  consolidationUserMessage,
  SAVE_TOOL,
  SAVE_TOOL_NAME,
} from './consolidate-prompt';
import { acquireConsolidationLock, type LockOptions } from './consolidation-lock';
import { readDreamState, writeDreamState } from './dream-state';

export interface ConsolidateDeps {
  memoryDir: string;
  /** `autoMemoryEnabled`: off means nothing is consolidated, not even on request. */
  enabled: boolean;
  client: ModelClient;
  /** The model that consolidates (the session's main model: this is real editing work). */
  model: string;
  now?: () => Date;
  signal?: AbortSignal;
  /** Told what happens, for the dream task's output. */
  onProgress?: (line: string) => void;
  lock?: LockOptions;
  /** Told what the consolidation request cost. */
  onUsage?: (report: UsageReport) => void;
}

export interface DreamResult {
  /** Whether a consolidation ran to the end (M4's ConsolidateResult.ran). */
  ran: boolean;
  /** One plain sentence for the person. */
  message: string;
  written: string[];
  removed: string[];
  /** Files the model proposed that were refused, and why. */
  problems: string[];
}

const MAX_OUTPUT_TOKENS = 32_000;

/**
 * "Consolidate now": consolidation without autoDream's time and session gates, but never without
 * the lock, so it cannot run beside an autoDream of another process. Never throws.
 */
export async function consolidateNow(deps: ConsolidateDeps): Promise<DreamResult> {
  if (!deps.enabled) return notRun('Auto memory is off, so there is nothing to consolidate.');
  // The demo model only replays scripted answers: it cannot edit memories.
  if (deps.model === DEMO_MODEL_ID)
    return notRun('Consolidating memories needs a Claude model; the demo model cannot do it.');
  let lock;
  try {
    lock = await acquireConsolidationLock(deps.memoryDir, {
      ...(deps.now ? { now: deps.now } : {}),
      ...deps.lock,
    });
  } catch (error) {
    return notRun(`The consolidation lock could not be taken: ${(error as Error).message}`);
  }
  if (!lock) return notRun('Another Carapace process is consolidating these memories right now.');
  try {
    return await consolidateLocked(deps);
  } finally {
    await lock.release();
  }
}

/**
 * One consolidation, for a caller that holds the lock: the memories go to the model, its answer is
 * checked (apply-consolidation.ts) and written, and the dream state starts counting afresh.
 */
export async function consolidateLocked(deps: ConsolidateDeps): Promise<DreamResult> {
  const now = deps.now ?? (() => new Date());
  const say = deps.onProgress ?? (() => undefined);
  try {
    const headers = await scanMemories(deps.memoryDir);
    const memories: { file: string; age: string; content: string }[] = [];
    const existing = new Set(headers.map((h) => h.file));
    for (const h of headers) {
      const content = await readFile(path.join(deps.memoryDir, h.file), 'utf8').catch(() => null);
      // A file too big to show whole is left alone: rewriting it from a cut copy would lose its end.
      if (content === null || content.length > MAX_MEMORY_CHARS) continue;
      memories.push({ file: h.file, age: memoryAgeLabel(memoryAgeDays(h.mtimeMs, now())), content });
    }
    if (memories.length === 0) {
      await markDone(deps.memoryDir, now());
      return {
        ran: true,
        message: 'There are no memories to consolidate yet.',
        written: [],
        removed: [],
        problems: [],
      };
    }
    const index = await readFile(memoryIndexPath(deps.memoryDir), 'utf8').catch(() => null);
    say(`Consolidating ${memories.length} memories with ${deps.model}…`);
    const output = await ask(deps, consolidationUserMessage(memories, index));
    const shown = new Map(memories.map((m) => [m.file, m.content]));
    if (index !== null) shown.set(MEMORY_INDEX_FILE, index);
    const plan = planConsolidation(output, deps.memoryDir, shown, existing);
    for (const p of plan.problems) say(p);
    const { written, removed } = await applyPlan(plan, deps.memoryDir, now());
    await markDone(deps.memoryDir, now());
    const message = `Memories consolidated: ${written.length} written, ${removed.length} removed${plan.problems.length ? `, ${plan.problems.length} refused` : ''}.`;
    say(message);
    return { ran: true, message, written, removed, problems: plan.problems };
  } catch (error) {
    const message = `The consolidation failed: ${(error as Error).message}`;
    say(message);
    return notRun(message);
  }
}

async function ask(deps: ConsolidateDeps, userText: string): Promise<ConsolidationOutput> {
  const message = await sideRequest(
    deps.client,
    {
      model: deps.model,
      maxTokens: MAX_OUTPUT_TOKENS,
      system: CONSOLIDATE_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: userText }],
      tools: [SAVE_TOOL],
    },
    deps.signal ?? new AbortController().signal,
    deps.onUsage,
    'consolidation',
  );
  if (message.stopReason === 'max_tokens') throw new Error('the model ran out of room before it finished.');
  const call = message.content.find((b) => b.type === 'tool_use' && b.name === SAVE_TOOL_NAME);
  if (!call || call.type !== 'tool_use') throw new Error(`the model did not call ${SAVE_TOOL_NAME}.`);
  const parsed = ConsolidationOutput.safeParse(call.input);
  if (!parsed.success)
    throw new Error(`the model's answer was not usable (${parsed.error.issues[0]?.message ?? 'bad shape'}).`);
  return parsed.data;
}

async function markDone(memoryDir: string, at: Date): Promise<void> {
  const state = await readDreamState(memoryDir);
  await writeDreamState(memoryDir, { ...state, lastConsolidatedAt: at.toISOString(), sessionsSince: 0 });
}

function notRun(message: string): DreamResult {
  return { ran: false, message, written: [], removed: [], problems: [] };
}
