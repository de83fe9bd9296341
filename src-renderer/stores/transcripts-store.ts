import { create } from 'zustand';
import type {
  StreamDelta,
  ToolProgressDelta,
  ToolResultBlock,
  TranscriptItem,
} from '@shared/domain/messages';

/** Live output kept per running tool: enough for the card, bounded so `yes` cannot fill memory. */
const PROGRESS_KEEP = 8000;

export interface TranscriptsState {
  bySession: Record<string, TranscriptItem[]>;
  /** Tool results by session and tool_use id: from loaded transcripts and live `tool.result` events. */
  results: Record<string, Record<string, ToolResultBlock>>;
  /** Tail of each running tool's output. */
  progress: Record<string, string>;
}

export const useTranscripts = create<TranscriptsState>()(() => ({
  bySession: {},
  results: {},
  progress: {},
}));

function resultsIn(items: readonly TranscriptItem[]): Record<string, ToolResultBlock> {
  const out: Record<string, ToolResultBlock> = {};
  for (const i of items)
    if (i.kind === 'message') for (const b of i.content) if (b.type === 'tool_result') out[b.tool_use_id] = b;
  return out;
}

export function setTranscript(sessionId: string, items: TranscriptItem[]): void {
  useTranscripts.setState((s) => ({
    bySession: { ...s.bySession, [sessionId]: items },
    results: { ...s.results, [sessionId]: resultsIn(items) },
  }));
}

/** Adds or replaces an item by id; ignored for sessions whose transcript is not loaded (fetched whole later). */
export function upsertItem(sessionId: string, item: TranscriptItem): void {
  useTranscripts.setState((s) => {
    const items = s.bySession[sessionId];
    if (!items) return s;
    const i = items.findLastIndex((x) => x.id === item.id);
    const next = i < 0 ? [...items, item] : items.with(i, item);
    const found = resultsIn([item]);
    const results =
      Object.keys(found).length > 0
        ? { ...s.results, [sessionId]: { ...s.results[sessionId], ...found } }
        : s.results;
    return { bySession: { ...s.bySession, [sessionId]: next }, results };
  });
}

/** A withdrawn message (a failed attempt, a regenerated reply) leaves the view. */
export function removeItem(sessionId: string, itemId: string): void {
  useTranscripts.setState((s) => {
    const items = s.bySession[sessionId];
    if (!items?.some((x) => x.id === itemId)) return s;
    return { bySession: { ...s.bySession, [sessionId]: items.filter((x) => x.id !== itemId) } };
  });
}

export function setToolResult(sessionId: string, block: ToolResultBlock): void {
  useTranscripts.setState((s) => ({
    results: { ...s.results, [sessionId]: { ...s.results[sessionId], [block.tool_use_id]: block } },
  }));
}

/**
 * Applies one batch of text deltas and tool output in a single store update. A delta for a message
 * that is no longer streaming is stale (its final form already arrived) and is dropped, so text is
 * never doubled.
 */
export function applyDeltas(
  deltas: readonly StreamDelta[],
  progress: readonly ToolProgressDelta[] = [],
): void {
  useTranscripts.setState((s) => {
    let bySession = s.bySession;
    for (const d of deltas) {
      const items = bySession[d.sessionId];
      if (!items) continue;
      const i = items.findLastIndex((x) => x.id === d.itemId);
      const item = items[i];
      if (!item || item.kind !== 'message' || item.status !== 'streaming') continue;
      const content = [...item.content];
      const block = content[d.index];
      content[d.index] = { type: 'text', text: (block?.type === 'text' ? block.text : '') + d.text };
      for (let k = 0; k < content.length; k++) content[k] ??= { type: 'text', text: '' };
      if (bySession === s.bySession) bySession = { ...bySession };
      bySession[d.sessionId] = items.with(i, { ...item, content });
    }
    let out = s.progress;
    for (const p of progress) {
      if (out === s.progress) out = { ...out };
      out[p.toolUseId] = ((out[p.toolUseId] ?? '') + p.text).slice(-PROGRESS_KEEP);
    }
    return bySession === s.bySession && out === s.progress ? s : { bySession, progress: out };
  });
}
