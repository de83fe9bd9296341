import path from 'node:path';
import { z } from 'zod';
import { messageText, type MessageItem, type TranscriptItem } from '@shared/domain/messages';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import { PermissionMode } from '@shared/domain/permissions';
import { CostKind, SessionWorktree } from '@shared/domain/session';
import { TokenUsage } from '@shared/domain/usage';
import { subagentUsageLines } from '../harness/cost/ledger/subagent-usage';
import { CostTracker, type CostSnapshot } from '../harness/cost/tracker';
import type { UsageLine } from '../harness/cost/usage-line';
import { costOf } from '../harness/cost/pricing';
import type { TranscriptLine } from '../harness/session/transcript-file';
import { linesAfterCuts } from '../harness/session/cut-lines';

/** What a session list needs of a session, without its transcript: what the index caches. */
export const SessionMeta = z.object({
  id: z.string(),
  title: z.string(),
  /** True once a person named it; auto-titling stops then. */
  titled: z.boolean(),
  model: z.string(),
  permissionMode: PermissionMode,
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  costKind: CostKind,
  /** A coordinator session (runs a team of workers); older index entries have none. */
  coordinator: z.boolean().default(false),
  /** Its own git worktree (workspace/worktrees); sessions without one, and older entries, have none. */
  worktree: SessionWorktree.optional(),
});
export type SessionMeta = z.infer<typeof SessionMeta>;

/** The name of a session nobody has named and that has no message yet: when it was started. */
export function defaultTitle(createdAt: string): string {
  const d = new Date(createdAt);
  const pad = (n: number) => String(n).padStart(2, '0');
  return Number.isNaN(d.getTime())
    ? 'Session'
    : `Session ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A title from the first message a person wrote: its first line, cut at a word near 48 characters. */
export function autoTitle(items: readonly TranscriptItem[]): string | null {
  const first = items.find(
    (i): i is MessageItem =>
      i.kind === 'message' && i.role === 'user' && (i.origin === undefined || i.origin === 'user'),
  );
  if (!first) return null;
  const line = messageText(first.content).trim().split('\n')[0]?.trim() ?? '';
  if (line === '') return null;
  if (line.length <= 48) return line;
  const cut = line.slice(0, 48);
  const space = cut.lastIndexOf(' ');
  return `${space > 24 ? cut.slice(0, space) : cut}…`;
}

/** Cost kind of a session from its tracker: unknown models flag it; a demo session says so. */
export function costKindOf(tracker: CostTracker, model: string): CostKind {
  if (tracker.unpricedModels.length > 0) return 'unpriced';
  if (Object.keys(tracker.modelUsage()).some((m) => m !== DEMO_MODEL_ID)) return 'priced';
  return costOf(model, {
    inputTokens: 0,
    outputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
  }).kind;
}

/** When a session last had a message (its creation time if none): live sessions and rebuilds agree. */
export function lastActivity(items: readonly TranscriptItem[], createdAt: string): string {
  const last = items.findLast((i) => i.kind === 'message')?.createdAt;
  return last === undefined || last < createdAt ? createdAt : last;
}

/** Rebuilds a session's list entry from its transcript lines alone. */
export function metaFromLines(
  file: string,
  lines: readonly TranscriptLine[],
  fallbackTime: string,
): SessionMeta {
  const id = path.basename(file, '.jsonl');
  let model = 'unknown';
  let createdAt = fallbackTime;
  let title: string | null = null;
  let mode: PermissionMode = 'default';
  let coordinator = false;
  let worktree: SessionWorktree | undefined;
  const items: TranscriptItem[] = [];
  const tracker = new CostTracker(id);
  let snapshot: CostSnapshot | null = null;
  const usageLines: UsageLine[] = [];
  // Messages a rewind took out are not counted (harness/session/cut-lines.ts); usage stays.
  for (const line of linesAfterCuts(lines)) {
    if (line.type === 'session') {
      model = line.model;
      createdAt = line.createdAt;
      coordinator = line.coordinator === true;
      worktree = line.worktree;
    } else if (line.type === 'item') {
      items.push(line.item);
    } else if (line.type === 'title') title = line.title;
    else if (line.type === 'model') model = line.model;
    else if (line.type === 'mode') mode = line.mode;
    else if (line.type === 'cost') snapshot = line.snapshot.sessionId === id ? line.snapshot : snapshot;
    else if (line.type === 'usage') usageLines.push(line);
  }
  if (usageLines.length > 0 || snapshot === null) {
    // As the cost dashboard counts it (the ledger): every usage line, priced when it arrived (1 h
    // writes and web searches included), replies older than usage lines priced now, and the session's
    // sub-agents and teammates from their own transcripts. A crash mid-turn loses nothing.
    for (const u of usageLines) tracker.addLine(u);
    for (const i of items)
      // Without an API id a reply cannot be matched to its usage line: counted only where none exist.
      if (i.kind === 'message' && i.role === 'assistant' && i.usage && (i.apiId || usageLines.length === 0))
        tracker.add({ model: i.model ?? model, apiId: i.apiId ?? null, usage: i.usage });
    for (const u of subagentUsageLines(path.join(path.dirname(file), id))) tracker.addLine(u);
  } else {
    // A transcript from before usage lines: its last snapshot (sub-agents included) is the best figure.
    tracker.restore(snapshot);
  }
  return {
    id,
    title: title ?? autoTitle(items) ?? defaultTitle(createdAt),
    titled: title !== null,
    model,
    permissionMode: mode,
    createdAt,
    updatedAt: lastActivity(items, createdAt),
    messageCount: items.filter(
      (i) =>
        i.kind === 'message' && (i.origin === undefined || i.origin === 'user' || i.role === 'assistant'),
    ).length,
    usage: tracker.totalUsage(),
    costUsd: tracker.totalCostUsd,
    costKind: costKindOf(tracker, model),
    coordinator,
    ...(worktree ? { worktree } : {}),
  };
}
