import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import type { ContentBlock, MessageItem } from '@shared/domain/messages';
import type { UsageReport } from '../../cost/tracker';
import type { ModelRouter } from '../../model/model-client';
import type { LoadedFile } from '../instructions/types';
import type { TaskView } from '@shared/domain/session';
import type { TrackedTask } from '../../tasks/task-manager';
import { recallAttachmentText } from './attachment';
import { recallMemories, type RecalledMemory } from './select';
import { DEFAULT_SMALL_MODEL } from './small-model';

export interface MemoryRecallOptions {
  memoryDir: string;
  /** Read at each turn, so turning `autoMemoryEnabled` off takes effect at once. */
  enabled: () => boolean;
  /** The selector's model; `claude-haiku-4-5` when not given (see small-model.ts). */
  smallModel?: string;
  now?: () => Date;
  timeoutMs?: number;
  /**
   * Run once, at the session's first turn in this process: autoDream's check (dream/session-memory.ts
   * wires it; this folder does not import dream/, which builds on it).
   */
  onFirstTurn?: (turn: FirstTurn) => Promise<unknown>;
}

/** What the first-turn hook gets: how to reach the session's model, and its task list. */
export interface FirstTurn {
  /** The session had turns before this process (a reopened session): it was counted then. */
  resumed: boolean;
  models: ModelRouter;
  sessionModel: string;
  onUsage?: (report: UsageReport) => void;
  tasks?: {
    track(o: { kind: TaskView['kind']; description: string; command: string; stop: () => void }): TrackedTask;
  };
}

/**
 * One session's memory upkeep. Each user turn it asks the selector for memories not yet recalled in
 * this session (those already sent stay in the context) and returns them as a user-role note.
 *
 * It is also where autoDream is checked: at the session's first turn in this process (not when the
 * tab opens: a session nobody writes in did no work worth consolidating), the session is counted in
 * the memory directory's dream state and, if every gate passes, consolidation starts in the
 * background as a `dream` task of this session (dream/auto-dream.ts).
 */
export class MemoryRecall {
  private readonly surfaced = new Set<string>();
  /** Every memory recalled in this session, oldest first (for "Loaded in this session"). */
  readonly recalled: RecalledMemory[] = [];
  /** Why the last recall gave up, if it did (diagnostics; the turn went on). */
  lastProblem: string | null = null;
  /** What `onFirstTurn` returned (autoDream's check), once the first turn ran: for tests. */
  firstTurn: Promise<unknown> | null = null;

  constructor(private readonly options: MemoryRecallOptions) {}

  /** The recalled memories as "Loaded in this session" lists them (scope auto-memory, in recall order). */
  loadedFiles(): LoadedFile[] {
    // Named as the folder names it (not the resolved path), so the person recognises it.
    return this.recalled.map((m) => ({
      scope: 'auto-memory',
      path: path.join(this.options.memoryDir, ...m.file.split('/')),
      importedBy: null,
      text: m.content,
    }));
  }

  async noteFor(turn: {
    prompt: string | readonly ContentBlock[];
    models: ModelRouter;
    /** The session's model: the demo model has no small model beside it, so it gets no recall. */
    sessionModel: string;
    toolsInUse: readonly string[];
    signal: AbortSignal;
    /** The session's task list, where autoDream shows as a `dream` task. */
    tasks?: FirstTurn['tasks'];
    /** Told what the side requests (selector, consolidation) cost. */
    onUsage?: (report: UsageReport) => void;
    /** The context so far: memories recalled before a resume are still in it, and not sent again. */
    context?: readonly MessageItem[];
  }): Promise<MessageItem | null> {
    if (turn.sessionModel === DEMO_MODEL_ID) return null;
    this.lastProblem = null;
    for (const file of recalledIn(turn.context ?? [])) this.surfaced.add(file);
    if (this.firstTurn === null && this.options.onFirstTurn) {
      this.firstTurn = this.options
        .onFirstTurn({
          resumed: hadTurns(turn.context ?? []),
          models: turn.models,
          sessionModel: turn.sessionModel,
          ...(turn.tasks ? { tasks: turn.tasks } : {}),
          ...(turn.onUsage ? { onUsage: turn.onUsage } : {}),
        })
        .catch(() => null);
    }
    try {
      return await this.recall(turn);
    } catch (error) {
      // Recall is a help, never a gate: whatever went wrong, the turn goes on without it.
      this.lastProblem = `Memory recall skipped: ${(error as Error).message}`;
      return null;
    }
  }

  private async recall(turn: Parameters<MemoryRecall['noteFor']>[0]): Promise<MessageItem | null> {
    const model = this.options.smallModel ?? DEFAULT_SMALL_MODEL;
    const memories = await recallMemories({
      memoryDir: this.options.memoryDir,
      enabled: this.options.enabled(),
      query: textOf(turn.prompt),
      client: turn.models.clientFor(model),
      model,
      now: this.options.now ?? (() => new Date()),
      signal: turn.signal,
      toolsInUse: turn.toolsInUse,
      exclude: this.surfaced,
      ...(turn.onUsage ? { onUsage: turn.onUsage } : {}),
      onProblem: (message) => (this.lastProblem = message),
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
    });
    if (memories.length === 0) return null;
    for (const m of memories) {
      this.surfaced.add(m.file);
      this.recalled.push(m);
    }
    return {
      kind: 'message',
      id: randomUUID(),
      role: 'user',
      // A harness note: shown quietly in the transcript, merged into the user's message for the API.
      origin: 'memory',
      content: [{ type: 'text', text: recallAttachmentText(memories) }],
      createdAt: new Date().toISOString(),
      status: 'complete',
    };
  }
}

/**
 * Whether a context holds earlier turns than the one starting (whose prompt is already in it): a
 * model's answer, or the summary that replaced them.
 */
function hadTurns(context: readonly MessageItem[]): boolean {
  return context.some((m) => m.role === 'assistant' || m.origin === 'summary');
}

/** The files named in the recall notes of a context (see attachment.ts for the format). */
function recalledIn(context: readonly MessageItem[]): string[] {
  const files: string[] = [];
  for (const m of context) {
    if (m.origin !== 'memory') continue;
    for (const b of m.content) {
      if (b.type !== 'text') continue;
      for (const match of b.text.matchAll(/^<memory file="([^"\n]+)" saved="/gm))
        if (match[1]) files.push(match[1]);
    }
  }
  return files;
}

function textOf(prompt: string | readonly ContentBlock[]): string {
  if (typeof prompt === 'string') return prompt;
  return prompt.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}
