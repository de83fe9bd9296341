import { existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AgentState, AgentSummary } from '@shared/domain/agents';
import type { TranscriptItem } from '@shared/domain/messages';
import { ZERO_USAGE } from '@shared/domain/usage';
import { CostTracker } from '../harness/cost/tracker';
import type { AgentEvent } from '../harness/events/agent-event';
import { readTranscript } from '../harness/session/transcript-file';
import { AgentStream } from './agent-stream';
import type { EventHub } from './event-hub';

/** Progress alone (text streaming) refreshes a card at most this often. */
const PROGRESS_EMIT_MS = 1000;
/**
 * A saved sub-agent transcript larger than this is not read for its card: every one is read whole
 * when the session opens, and one huge (or endless) file must not stall or exhaust the main process.
 */
export const MAX_SAVED_AGENT_BYTES = 64 * 1024 * 1024;
/** The name the runtime gives a sub-agent's or worker's transcript: its agent id. */
const SAVED_NAME = /^(agent-[\w-]+)\.jsonl$/;

const now = () => new Date().toISOString();

interface Tracked {
  summary: AgentSummary;
  stream: AgentStream;
  cost: CostTracker;
  lastEmit: number;
  /** The saved transcript file (read when the agent is not live). */
  file: string;
  live: boolean;
}

/** One line naming a tool call, for a card's "doing now" and for spotting repeats. */
function callLine(name: string, input: Record<string, unknown>): string {
  const main = ['command', 'file_path', 'path', 'pattern', 'description', 'url'].find(
    (k) => typeof input[k] === 'string',
  );
  const arg = main ? String(input[main]) : JSON.stringify(input);
  return `${name}: ${arg.length > 120 ? `${arg.slice(0, 119)}…` : arg}`;
}

/**
 * The sub-agents and workers of one session: their cards (state, activity, usage, cost own and
 * rolled up), their live transcripts, and those saved beside the session from earlier runs.
 */
export class AgentTracker {
  private readonly agents = new Map<string, Tracked>();
  /** Saved transcripts that were not read back, in words for the person. */
  readonly problems: string[] = [];

  constructor(
    private readonly hub: EventHub,
    private readonly sessionId: string,
    /** The session's folder: sub-agents' transcripts are in its `subagents/`. */
    sessionDir: string,
    /** Whether an agent has a permission request waiting for a person. */
    private readonly waiting: (agentId: string) => boolean,
  ) {
    this.loadSaved(path.join(sessionDir, 'subagents'));
    this.breakParentLoops();
  }

  list(): AgentSummary[] {
    return [...this.agents.values()].map((t) => this.view(t));
  }

  has(agentId: string): boolean {
    return this.agents.has(agentId);
  }

  /** An agent's transcript: live as it streams, or read back from its file. */
  transcript(agentId: string): TranscriptItem[] | null {
    const t = this.agents.get(agentId);
    if (!t) return null;
    if (t.live || t.stream.items.length > 0) return t.stream.transcript();
    return savedItems(t.file);
  }

  /** Handles one event of a sub-agent or worker (never the session's main agent). */
  apply(e: AgentEvent): void {
    if (e.type === 'agent_started') {
      const { info } = e;
      const summary: AgentSummary = {
        id: info.agentId,
        sessionId: this.sessionId,
        parentId: info.parentId ?? this.sessionId,
        toolUseId: info.toolUseId,
        name: info.name,
        agentType: info.agentType,
        model: info.model,
        state: 'working',
        activity: null,
        startedAt: info.startedAt,
        endedAt: null,
        lastProgressAt: info.startedAt,
        recentCalls: [],
        usage: ZERO_USAGE,
        costUsd: 0,
        totalCostUsd: 0,
        toolUseCount: 0,
        verdict: null,
        verdictReasons: null,
        endReason: null,
        teammate: info.toolUseId === null,
      };
      this.agents.set(info.agentId, {
        summary,
        stream: new AgentStream(this.hub, this.sessionId, info.agentId, true),
        cost: new CostTracker(info.agentId),
        lastEmit: 0,
        file: info.transcriptFile,
        live: true,
      });
      this.emit(info.agentId, true);
      return;
    }
    const t = this.agents.get(e.agentId);
    if (!t) return;
    if (!t.live) this.revive(t);
    const s = t.summary;
    s.lastProgressAt = now();
    let changed = false;
    switch (e.type) {
      case 'agent_ended':
        s.state = e.outcome.reason === 'completed' ? 'done' : 'failed';
        s.endReason = e.outcome.reason;
        s.endedAt = e.outcome.endedAt;
        s.activity = null;
        if (e.outcome.verdict) {
          s.verdict = e.outcome.verdict.verdict;
          s.verdictReasons = e.outcome.verdict.reasons;
        }
        t.live = false;
        changed = true;
        break;
      case 'usage':
        t.cost.add({ model: e.model, apiId: e.apiId, usage: e.usage, durationMs: e.durationMs });
        s.usage = t.cost.totalUsage();
        s.costUsd = t.cost.totalCostUsd;
        this.emitAncestors(s.parentId);
        changed = true;
        break;
      case 'tool_start': {
        const line = callLine(e.block.name, e.block.input);
        s.activity = line;
        s.toolUseCount++;
        s.recentCalls = [...s.recentCalls, `${e.block.name}(${JSON.stringify(e.block.input)})`].slice(-3);
        changed = true;
        break;
      }
      case 'tool_result':
        s.activity = null;
        changed = true;
        break;
      default:
        break;
    }
    if (e.type !== 'agent_ended') t.stream.handle(e);
    this.emit(e.agentId, changed);
  }

  /** The waiting state of some agent changed: refresh the cards that wait or stopped waiting. */
  refreshWaiting(): void {
    for (const [id, t] of this.agents) {
      if (!t.live) continue;
      const waiting = this.waiting(id);
      if (waiting !== (t.summary.state === 'waiting')) {
        t.summary.state = waiting ? 'waiting' : 'working';
        this.emit(id, true);
      }
    }
  }

  /**
   * A team's worker changed state (idle between turns, waiting on its plan, ended): its card follows.
   * A worker of an earlier run that is still in its team is idle, not done.
   */
  setState(agentId: string, state: AgentState): void {
    const t = this.agents.get(agentId);
    if (!t || t.summary.state === state) return;
    t.summary.state = state;
    if (state !== 'done' && state !== 'failed') {
      t.summary.endedAt = null;
      t.summary.endReason = null;
    }
    this.emit(agentId, true);
  }

  /** A worker of an earlier run is at work again: its card shows its whole transcript, then the new. */
  private revive(t: Tracked): void {
    // A file that can no longer be read leaves the card with the new work only: never a failed turn.
    try {
      t.stream.items.push(...savedItems(t.file));
    } catch {
      // Nothing earlier to show.
    }
    t.live = true;
    t.summary.state = 'working';
    t.summary.endedAt = null;
    t.summary.endReason = null;
  }

  private view(t: Tracked): AgentSummary {
    return { ...t.summary, totalCostUsd: this.totalOf(t.summary.id) };
  }

  /** Own cost plus every descendant's (each counted once, whatever parents a saved file claims). */
  private totalOf(agentId: string, seen = new Set<string>()): number {
    if (seen.has(agentId)) return 0;
    seen.add(agentId);
    let total = this.agents.get(agentId)?.summary.costUsd ?? 0;
    for (const t of this.agents.values())
      if (t.summary.parentId === agentId) total += this.totalOf(t.summary.id, seen);
    return total;
  }

  private emit(agentId: string, force: boolean): void {
    const t = this.agents.get(agentId);
    if (!t) return;
    const at = Date.now();
    if (!force && at - t.lastEmit < PROGRESS_EMIT_MS) return;
    t.lastEmit = at;
    this.hub.emit('agents.changed', { agent: this.view(t) });
  }

  private emitAncestors(parentId: string): void {
    const seen = new Set<string>();
    let id: string | undefined = parentId;
    // A parent chain that loops (saved files naming each other) ends at the first repeat.
    while (id !== undefined && this.agents.has(id) && !seen.has(id)) {
      seen.add(id);
      this.emit(id, true);
      id = this.agents.get(id)?.summary.parentId;
    }
  }

  /**
   * Saved files may name each other (or themselves) as parents: a card whose parent chain loops is
   * put under the session, so every card sits in one tree whoever walks it.
   */
  private breakParentLoops(): void {
    for (const t of this.agents.values()) {
      const seen = new Set<string>([t.summary.id]);
      let id = t.summary.parentId;
      while (this.agents.has(id)) {
        if (seen.has(id)) {
          t.summary.parentId = this.sessionId;
          break;
        }
        seen.add(id);
        id = this.agents.get(id)?.summary.parentId ?? this.sessionId;
      }
    }
  }

  /**
   * Cards for the sub-agents of earlier runs, from the transcripts saved beside the session. The
   * folder is only data: an entry that is not a plain file of the runtime's naming, too large, not
   * readable, or whose header names another agent (the session itself, one of its siblings) is
   * skipped and reported, and the session still opens.
   */
  private loadSaved(folder: string): void {
    if (!existsSync(folder)) return;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      this.problems.push(`The sub-agents folder could not be read: ${(error as Error).message}`);
      return;
    }
    for (const entry of entries) {
      const named = SAVED_NAME.exec(entry.name);
      if (!named) continue;
      const file = path.join(folder, entry.name);
      const skip = (why: string) =>
        this.problems.push(`Sub-agent transcript ${entry.name} ${why}; it was skipped.`);
      // Never a link, FIFO or device: reading one could leave the project, block or never end.
      if (!entry.isFile()) {
        skip('is not a regular file');
        continue;
      }
      let lines;
      try {
        if (lstatSync(file).size > MAX_SAVED_AGENT_BYTES) {
          skip(`is larger than ${MAX_SAVED_AGENT_BYTES / 1024 / 1024} MB`);
          continue;
        }
        ({ lines } = readTranscript(file));
      } catch (error) {
        skip(`could not be read (${(error as Error).message})`);
        continue;
      }
      const head = lines.find((l) => l.type === 'session');
      if (head?.type !== 'session' || !head.agent) continue;
      if (head.agent.agentId !== named[1] || head.agent.agentId === this.sessionId) {
        skip(`says it belongs to another agent (${head.agent.agentId})`);
        continue;
      }
      const cost = new CostTracker(head.agent.agentId);
      for (const l of lines) if (l.type === 'cost') cost.restore(l.own ?? l.snapshot);
      const items = lines.flatMap((l) => (l.type === 'item' ? [l.item] : []));
      const last = items.at(-1);
      const interrupted = items.some((i) => i.kind === 'message' && i.status === 'interrupted');
      this.agents.set(head.agent.agentId, {
        summary: {
          id: head.agent.agentId,
          sessionId: this.sessionId,
          parentId: head.agent.parentId ?? this.sessionId,
          toolUseId: head.agent.toolUseId,
          name: head.agent.name,
          agentType: head.agent.agentType,
          model: head.model,
          state: interrupted ? 'failed' : 'done',
          activity: null,
          startedAt: head.createdAt,
          endedAt: last?.createdAt ?? head.createdAt,
          lastProgressAt: last?.createdAt ?? head.createdAt,
          recentCalls: [],
          usage: cost.totalUsage(),
          costUsd: cost.totalCostUsd,
          totalCostUsd: 0,
          toolUseCount: items.reduce(
            (n, i) => n + (i.kind === 'message' ? i.content.filter((b) => b.type === 'tool_use').length : 0),
            0,
          ),
          verdict: null,
          verdictReasons: null,
          endReason: interrupted ? 'aborted' : 'completed',
          teammate: head.agent.toolUseId === null,
        },
        stream: new AgentStream(this.hub, this.sessionId, head.agent.agentId, true),
        cost,
        lastEmit: 0,
        file,
        live: false,
      });
    }
  }
}

/** The items of a saved transcript, for one that must be a plain file of a sane size. */
function savedItems(file: string): TranscriptItem[] {
  const st = lstatSync(file);
  if (!st.isFile() || st.size > MAX_SAVED_AGENT_BYTES)
    throw new Error(`${path.basename(file)} is not a plain file of at most ${MAX_SAVED_AGENT_BYTES} bytes`);
  return readTranscript(file).lines.flatMap((l) => (l.type === 'item' ? [l.item] : []));
}
