import type { StateCreator } from 'zustand';
import type {
  StreamDelta,
  ToolProgressDelta,
  ToolResultBlock,
  TranscriptItem,
} from '@shared/domain/messages';
import { isWorking } from '@shared/domain/session';
import { RecentSessions, transcriptsToEvict } from './transcript-eviction';
import { isInView, type WorkspaceState } from './workspace-slice';

/** Live output kept per running tool: enough for the card, bounded so `yes` cannot fill memory. */
const PROGRESS_KEEP = 8000;

/** Open/closed choices kept per agent transcript: the most recent ones, so a long session cannot grow it without end. */
export const TOGGLES_KEEP = 500;

/** One agent's transcript as the window holds it. */
export interface AgentTranscript {
  items: TranscriptItem[];
  /** Tool results by tool_use id: from the loaded transcript and live `tool.result` events. */
  results: Record<string, ToolResultBlock>;
  /** Tail of each running tool's output, by tool_use id (dropped once its result arrives). */
  progress: Record<string, string>;
  /**
   * A person's open/closed choice on tool cards, by tool_use id. Kept here rather than in the card,
   * which unmounts when its row scrolls out of the virtualised list; it goes with the transcript.
   */
  toggles?: Record<string, boolean>;
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
  /** Remembers that a person opened or closed a tool card (the latest TOGGLES_KEEP per agent). */
  setToolOpen(sessionId: string, agentId: string, toolUseId: string, open: boolean): void;
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

/** What eviction reads besides the transcripts: which sessions are on screen, and which work. */
type Watched = TranscriptsSlice & WorkspaceState;

/**
 * Keeps the window's memory bounded however many tabs are open (see transcript-eviction.ts): on each
 * change of tabs, layout, sessions or loaded transcripts, drops the transcripts of closed tabs at
 * once (unless their session still works), those least recently on screen beyond the bound (in
 * items), and the live tool output of sessions that stopped working (what a call printed is in its
 * result; a call with none was stopped).
 */
function evictor(recent: RecentSessions) {
  return (state: Watched, prev: Watched): Partial<Watched> | null => {
    if (
      state.tabs === prev.tabs &&
      state.layout === prev.layout &&
      state.sessions === prev.sessions &&
      state.transcripts === prev.transcripts
    )
      return null;
    const visible = (id: string) => isInView(state, id, false);
    const working = (id: string) => isWorking(state.sessions[id]?.activity);
    const loaded = Object.keys(state.transcripts);
    for (const id of loaded) if (!(id in prev.transcripts) || !recent.has(id)) recent.touch(id);
    for (const id of state.tabs.open) if (visible(id)) recent.touch(id);
    const drop = new Set<string>();
    if (state.tabs !== prev.tabs)
      for (const id of prev.tabs.open)
        // A session still working keeps its transcript: the events streaming into it would otherwise
        // be ignored, and reopening the tab would show a fetch instead of the live reply.
        if (!state.tabs.open.includes(id) && !visible(id) && !working(id) && id in state.transcripts)
          drop.add(id);
    const size = (id: string) =>
      Object.values(state.transcripts[id] ?? {}).reduce((n, t) => n + t.items.length, 0);
    for (const id of transcriptsToEvict({ loaded, recent, visible, working, size })) drop.add(id);
    const finished =
      state.sessions === prev.sessions
        ? []
        : loaded.filter(
            (id) =>
              !drop.has(id) &&
              isWorking(prev.sessions[id]?.activity) &&
              !working(id) &&
              Object.values(state.transcripts[id] ?? {}).some((t) => Object.keys(t.progress).length > 0),
          );
    if (drop.size === 0 && finished.length === 0) return null;
    let all = state.transcripts;
    for (const id of drop) {
      all = withoutKey(all, id);
      recent.forget(id);
    }
    for (const id of finished) {
      const agents = all[id] ?? {};
      all = {
        ...all,
        [id]: Object.fromEntries(Object.entries(agents).map(([a, t]) => [a, { ...t, progress: {} }])),
      };
    }
    return { transcripts: all };
  };
}

export const createTranscriptsSlice: StateCreator<Watched, [], [], TranscriptsSlice> = (set, _get, api) => {
  const evict = evictor(new RecentSessions());
  api.subscribe((state, prev) => {
    const next = evict(state, prev);
    // Runs again for this update, and finds nothing more to drop.
    if (next) api.setState(next);
  });
  return {
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
    setToolOpen: (sessionId, agentId, toolUseId, open) =>
      set((s) => {
        const t = s.transcripts[sessionId]?.[agentId];
        if (!t || t.toggles?.[toolUseId] === open) return s;
        // Re-inserted last, so the oldest choices are the ones dropped past the bound.
        const toggles = { ...withoutKey(t.toggles ?? {}, toolUseId), [toolUseId]: open };
        const keys = Object.keys(toggles);
        for (const old of keys.slice(0, Math.max(0, keys.length - TOGGLES_KEEP))) delete toggles[old];
        return { transcripts: withAgent(s.transcripts, sessionId, agentId, { ...t, toggles }) };
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
          all = withAgent(all, d.sessionId, d.agentId, {
            ...t,
            items: t.items.with(i, { ...item, content }),
          });
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
  };
};
