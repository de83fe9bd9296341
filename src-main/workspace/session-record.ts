import path from 'node:path';
import type { ContentBlock, MessageItem, TranscriptItem } from '@shared/domain/messages';
import { messageText } from '@shared/domain/messages';
import type { CostKind, SessionActivity, SessionSummary } from '@shared/domain/session';
import { addUsage, ZERO_USAGE, type TokenUsage } from '@shared/domain/usage';
import { costOf } from '../harness/cost/pricing';
import type { ApiMessageParam } from '../harness/model/model-client';
import type { TranscriptLine } from '../harness/session/transcript-file';
import { TranscriptWriter } from '../harness/session/transcript-file';

/** A session as the main process holds it: transcript in memory, file open for appends. */
export interface SessionRecord {
  id: string;
  projectId: string;
  projectPath: string;
  title: string;
  /** True once a person named it; auto-titling stops then. */
  titled: boolean;
  model: string;
  createdAt: string;
  updatedAt: string;
  transcript: TranscriptItem[];
  activity: SessionActivity;
  lastError: string | null;
  writer: TranscriptWriter;
  /** Set while a turn runs; aborting it stops the turn. */
  turn: { abort: AbortController; done: Promise<void> } | null;
}

/** Rebuilds a record from the lines of its transcript file. */
export function recordFromLines(
  file: string,
  projectId: string,
  projectPath: string,
  lines: readonly TranscriptLine[],
  fallbackTime: string,
): SessionRecord {
  const record: SessionRecord = {
    id: path.basename(file, '.jsonl'),
    projectId,
    projectPath,
    title: 'Session',
    titled: false,
    model: 'unknown',
    createdAt: fallbackTime,
    updatedAt: fallbackTime,
    transcript: [],
    activity: 'idle',
    lastError: null,
    writer: new TranscriptWriter(file),
    turn: null,
  };
  for (const line of lines) {
    switch (line.type) {
      case 'session':
        record.model = line.model;
        record.createdAt = line.createdAt;
        break;
      case 'item':
        record.transcript.push(line.item);
        record.updatedAt = line.item.createdAt;
        break;
      case 'title':
        record.title = line.title;
        record.titled = true;
        break;
      case 'model':
        record.model = line.model;
        break;
    }
  }
  if (!record.titled) record.title = autoTitle(record.transcript) ?? defaultTitle(record.createdAt);
  return record;
}

/** The name of a session nobody has named and that has no message yet: when it was started. */
export function defaultTitle(createdAt: string): string {
  const d = new Date(createdAt);
  const pad = (n: number) => String(n).padStart(2, '0');
  return Number.isNaN(d.getTime())
    ? 'Session'
    : `Session ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A title from the first user message: its first line, cut at a word near 48 characters. */
export function autoTitle(transcript: readonly TranscriptItem[]): string | null {
  const first = transcript.find((i): i is MessageItem => i.kind === 'message' && i.role === 'user');
  if (!first) return null;
  const line = messageText(first.content).trim().split('\n')[0]?.trim() ?? '';
  if (line === '') return null;
  if (line.length <= 48) return line;
  const cut = line.slice(0, 48);
  const space = cut.lastIndexOf(' ');
  return `${space > 24 ? cut.slice(0, space) : cut}…`;
}

export function sessionUsage(record: SessionRecord): {
  usage: TokenUsage;
  costUsd: number;
  costKind: CostKind;
} {
  let usage = ZERO_USAGE;
  let usd = 0;
  let unpriced = false;
  let priced = false;
  for (const item of record.transcript) {
    if (item.kind !== 'message' || !item.usage) continue;
    usage = addUsage(usage, item.usage);
    const cost = costOf(item.model ?? record.model, item.usage);
    usd += cost.usd;
    if (cost.kind === 'unpriced') unpriced = true;
    if (cost.kind === 'priced') priced = true;
  }
  // Before the first reply, the session's own model decides how its (zero) cost reads.
  const costKind: CostKind = unpriced
    ? 'unpriced'
    : priced
      ? 'priced'
      : costOf(record.model, ZERO_USAGE).kind;
  return { usage, costUsd: usd, costKind };
}

export function summarize(record: SessionRecord): SessionSummary {
  const { usage, costUsd, costKind } = sessionUsage(record);
  return {
    id: record.id,
    projectId: record.projectId,
    title: record.title,
    model: record.model,
    activity: record.activity,
    waitingForUser: false,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    usage,
    costUsd,
    costKind,
    messageCount: record.transcript.filter((i) => i.kind === 'message').length,
    lastError: record.lastError,
  };
}

function apiBlocks(content: readonly ContentBlock[]): ApiMessageParam['content'] {
  const blocks: Exclude<ApiMessageParam['content'], string> = [];
  for (const b of content) {
    // The API refuses empty text blocks; an interrupted reply may have one.
    if (b.type === 'text' && b.text.length > 0) blocks.push({ type: 'text', text: b.text });
  }
  return blocks;
}

/**
 * The conversation as the Messages API takes it: finished messages only, empty ones dropped and
 * consecutive messages of one role merged (a failed reply leaves two user messages in a row).
 */
export function toApiMessages(transcript: readonly TranscriptItem[]): ApiMessageParam[] {
  const out: ApiMessageParam[] = [];
  for (const item of transcript) {
    if (item.kind !== 'message' || item.status === 'streaming') continue;
    const content = apiBlocks(item.content);
    if (content.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === item.role && Array.isArray(last.content) && Array.isArray(content)) {
      last.content.push(...content);
    } else {
      out.push({ role: item.role, content });
    }
  }
  return out;
}
