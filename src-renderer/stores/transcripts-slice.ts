import type { StateCreator } from 'zustand';
import type {
  StreamDelta,
  ToolProgressDelta,
  ToolResultBlock,
  TranscriptItem,
} from '@shared/domain/messages';

/** Live output kept per running tool: enough for the card, bounded so `yes` cannot fill memory. */
const PROGRESS_KEEP = 8000;

/** One agent's transcript as the window holds it. */
export interface AgentTranscript {
  items: TranscriptItem[];
  /** Tool results by tool_use id: from the loaded transcript and live `tool.result` events. */
  results: Record<string, ToolResultBlock>;
  /** Tail of each running tool's output, by tool_use id (dropped once its result arrives). */
  progress: Record<string, string>;
}

export interface TranscriptsSlice {
  /**
   * Loaded transcripts by session, then by agent: the session's main agent under the session's own
   * id, each sub-agent and worker under its id. Events for a transcript not loaded are ignored (it
   * is fetched whole when shown), so a partial one is never mistaken for the whole.
   */
  transcripts: Record<string, Record<string, AgentTranscript>>;
  setTranscript(sessionId: string, agentId: string, items: TranscriptItem[]): void;
  /**
   * Forgets every transcript of a session (its main agent's and its agents'): after a reconnect they
   * may have missed events, so each is fetched again whole when shown.
   */
  forgetTranscripts(sessionId: string): void;
  /** Adds or replaces an item by id. */
  upsertItem(sessionId: string, agentId: string, item: TranscriptItem): void;
  /** A withdrawn message (a failed attempt, a regenerated reply) leaves the view. */
  removeItem(sessionId: string, agentId: string, itemId: string): void;
  setToolResult(sessionId: string, agentId: string, block: ToolResultBlock): void;
  /**
   * Applies one batch of text deltas and tool output in a single update. A delta for a message that
   * is no longer streaming is stale (its final form already arrived) and is dropped, so text is
   * never doubled.
   */
  applyDeltas(deltas: readonly StreamDelta[], progress?: readonly ToolProgressDelta[]): void;
}

function resultsIn(items: readonly TranscriptItem[]): Record<string, ToolResultBlock> {
  const out: Record<string, ToolResultBlock> = {};
  for (const i of items)
    if (i.kind === 'message') for (const b of i.content) if (b.type === 'tool_result') out[b.tool_use_id] = b;
  return out;
}

type All = TranscriptsSlice['transcripts'];

/** Replaces one agent's transcript, leaving every other object as it was (so their views do not re-render). */
function withAgent(all: All, sessionId: string, agentId: string, next: AgentTranscript): All {
  return { ...all, [sessionId]: { ...all[sessionId], [agentId]: next } };
}

function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const out = { ...record };
  delete out[key];
  return out;
}

export const createTranscriptsSlice: StateCreator<TranscriptsSlice> = (set) => ({
  transcripts: {},
  setTranscript: (sessionId, agentId, items) =>
    set((s) => ({
      transcripts: withAgent(s.transcripts, sessionId, agentId, {
        items,
        results: resultsIn(items),
        progress: {},
      }),
    })),
  forgetTranscripts: (sessionId) => set((s) => ({ transcripts: withoutKey(s.transcripts, sessionId) })),
  upsertItem: (sessionId, agentId, item) =>
    set((s) => {
      const t = s.transcripts[sessionId]?.[agentId];
      if (!t) return s;
      const i = t.items.findLastIndex((x) => x.id === item.id);
      const items = i < 0 ? [...t.items, item] : t.items.with(i, item);
      const found = resultsIn([item]);
      const results = Object.keys(found).length > 0 ? { ...t.results, ...found } : t.results;
      return { transcripts: withAgent(s.transcripts, sessionId, agentId, { ...t, items, results }) };
    }),
  removeItem: (sessionId, agentId, itemId) =>
    set((s) => {
      const t = s.transcripts[sessionId]?.[agentId];
      if (!t?.items.some((x) => x.id === itemId)) return s;
      const items = t.items.filter((x) => x.id !== itemId);
      return { transcripts: withAgent(s.transcripts, sessionId, agentId, { ...t, items }) };
    }),
  setToolResult: (sessionId, agentId, block) =>
    set((s) => {
      const t = s.transcripts[sessionId]?.[agentId];
      if (!t) return s;
      return {
        transcripts: withAgent(s.transcripts, sessionId, agentId, {
          ...t,
          results: { ...t.results, [block.tool_use_id]: block },
          progress: withoutKey(t.progress, block.tool_use_id),
        }),
      };
    }),
  applyDeltas: (deltas, progress = []) =>
    set((s) => {
      let all = s.transcripts;
      for (const d of deltas) {
        const t = all[d.sessionId]?.[d.agentId];
        if (!t) continue;
        const i = t.items.findLastIndex((x) => x.id === d.itemId);
        const item = t.items[i];
        if (!item || item.kind !== 'message' || item.status !== 'streaming') continue;
        const content = [...item.content];
        const block = content[d.index];
        content[d.index] = { type: 'text', text: (block?.type === 'text' ? block.text : '') + d.text };
        for (let k = 0; k < content.length; k++) content[k] ??= { type: 'text', text: '' };
        all = withAgent(all, d.sessionId, d.agentId, { ...t, items: t.items.with(i, { ...item, content }) });
      }
      for (const p of progress) {
        const t = all[p.sessionId]?.[p.agentId];
        // Output of a call whose result is in is late; the result shows instead.
        if (!t || t.results[p.toolUseId]) continue;
        const text = ((t.progress[p.toolUseId] ?? '') + p.text).slice(-PROGRESS_KEEP);
        all = withAgent(all, p.sessionId, p.agentId, {
          ...t,
          progress: { ...t.progress, [p.toolUseId]: text },
        });
      }
      return all === s.transcripts ? s : { transcripts: all };
    }),
});
