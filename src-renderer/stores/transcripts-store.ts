import { create } from 'zustand';
import type { StreamDelta, TranscriptItem } from '@shared/domain/messages';

export interface TranscriptsState {
  bySession: Record<string, TranscriptItem[]>;
}

export const useTranscripts = create<TranscriptsState>()(() => ({ bySession: {} }));

export function setTranscript(sessionId: string, items: TranscriptItem[]): void {
  useTranscripts.setState((s) => ({ bySession: { ...s.bySession, [sessionId]: items } }));
}

/** Adds or replaces an item by id; ignored for sessions whose transcript is not loaded (fetched whole later). */
export function upsertItem(sessionId: string, item: TranscriptItem): void {
  useTranscripts.setState((s) => {
    const items = s.bySession[sessionId];
    if (!items) return s;
    const i = items.findLastIndex((x) => x.id === item.id);
    const next = i < 0 ? [...items, item] : items.with(i, item);
    return { bySession: { ...s.bySession, [sessionId]: next } };
  });
}

/**
 * Applies one batch of text deltas in a single store update. A delta for a message that is no longer
 * streaming is stale (its final form already arrived) and is dropped, so text is never doubled.
 */
export function applyDeltas(deltas: readonly StreamDelta[]): void {
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
    return bySession === s.bySession ? s : { bySession };
  });
}
