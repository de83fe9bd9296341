import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PermissionMode } from '@shared/domain/permissions';
import type { AgentDefinition } from '../agents/definition';
import { subagentModel } from '../agents/model-choice';
import { readOnlyGate } from '../agents/read-only-gate';
import { parseVerdict } from '../agents/verdict';
import type { AgentEvent, AgentInfo } from '../events/agent-event';
import type { PermissionHandler } from '../permissions/handlers';
import { subagentStartHook } from '../hooks/wire';
import type { McpManager } from '../mcp/types';
import type { AgentSpawner, AnyTool, SpawnRequest, SpawnResult } from '../tools/tool';
import type { AgentRuntime, RuntimeSetup } from './types';

/** Levels of sub-agents below a session's main agent, at most. */
export const MAX_AGENT_DEPTH = 3;

/** Write tools a read-only agent is never offered. */
const WRITE_TOOLS = new Set(['Write', 'Edit', 'NotebookEdit']);

const now = () => new Date().toISOString();

/** Modes from narrowest to widest; a sub-agent never runs wider than its parent. */
const WIDTH: Record<PermissionMode, number> = {
  plan: 0,
  dontAsk: 1,
  default: 2,
  acceptEdits: 3,
  bypassPermissions: 4,
};

export function childMode(parent: PermissionMode, asked: PermissionMode | null): PermissionMode {
  if (asked === null) return parent;
  return WIDTH[asked] <= WIDTH[parent] ? asked : parent;
}

/**
 * The turn limit of an agent started by another: its definition's, but never past its parent's (the
 * person's `--max-turns`): a repository's agent file must not buy more turns than the person allowed.
 */
export function childMaxTurns(own: number | null, parent: number | undefined): number | undefined {
  if (own === null) return parent;
  return parent === undefined ? own : Math.min(own, parent);
}

/**
 * Whether a definition's `tools` or `disallowedTools` list names a tool: by its name, or an MCP tool
 * (`mcp__<server>__<tool>`) by its server's `mcp__<server>` too, as permission rules name a whole
 * server. A server's part never holds `__` (mcp/names.ts), so the first `__` after it ends it.
 */
export function listsTool(list: readonly string[], name: string): boolean {
  if (list.includes(name)) return true;
  if (!name.startsWith('mcp__')) return false;
  const end = name.indexOf('__', 'mcp__'.length);
  return end > 0 && list.includes(name.slice(0, end));
}

/** The tools a definition is offered out of its parent's (the Agent tool is added by the runtime). */
export function toolsFor(def: AgentDefinition, parentTools: readonly AnyTool[]): AnyTool[] {
  return parentTools.filter(
    (t) =>
      t.name !== 'Agent' &&
      (def.tools === null || listsTool(def.tools, t.name)) &&
      !listsTool(def.disallowedTools, t.name) &&
      !(def.readOnly && WRITE_TOOLS.has(t.name)),
  );
}

/**
 * The parent's MCP servers as a sub-agent or teammate sees them: only the tools its definition offers
 * (toolsFor's rule; a read-only agent that lists no MCP tool gets none, since they may write anywhere).
 * The filtered list is kept until the servers' own changes, so the runtime wraps it only then.
 */
export function mcpFor(def: AgentDefinition, mcp: McpManager | undefined): McpManager | undefined {
  if (!mcp) return undefined;
  let seen: AnyTool[] | null = null;
  let kept: AnyTool[] = [];
  return {
    start: () => mcp.start(),
    list: () => mcp.list(),
    restart: (name) => mcp.restart(name),
    logs: (name) => mcp.logs(name),
    onDidChange: (listener) => mcp.onDidChange(listener),
    // The session owns the servers: a finished sub-agent must not close them.
    close: () => Promise.resolve(),
    tools: () => {
      const all = mcp.tools();
      if (all !== seen) {
        seen = all;
        // A read-only agent's tools are a list of its own (Explore, Plan): none unless it names them.
        kept = def.readOnly && def.tools === null ? [] : toolsFor(def, all);
      }
      return kept;
    },
  };
}

/**
 * The parent's handler, with the asking agent named on every request (the Inbox shows who asks).
 * A request of one of its own sub-agents passes through here too, already named: the name nearest
 * the asker stays, so the person sees who really asks, not the agent that started it.
 */
function attributed(
  handler: PermissionHandler | null,
  who: NonNullable<AgentInfo>,
): PermissionHandler | null {
  if (!handler) return null;
  return {
    resolve: (request, signal) =>
      handler.resolve(
        {
          ...request,
          agent: request.agent ?? { id: who.agentId, name: who.name, agentType: who.agentType },
        },
        signal,
      ),
  };
}

export interface SpawnerSetup {
  parent: RuntimeSetup;
  sessionDir: string;
  agentId: string;
  parentModel: () => string;
  /** createRuntime itself, passed in so this file need not import it (no cycle). */
  create: (s: RuntimeSetup) => AgentRuntime;
  /**
   * Where the events of agents a sub-agent starts outside a tool call (its background agents) go:
   * the parent's own handler, which adds their usage to the parent's total and passes them up, so
   * every level (and the session) pays for them.
   */
  onNested: (e: AgentEvent) => void;
}

/**
 * Starts sub-agents for one runtime's Agent tool: each is a runtime of its own (built by the same
 * createRuntime) with its own context window, tools, read-file state, transcript and cost, the
 * parent's permission sources and person, and the parent call's abort signal.
 */
export function createSpawner(o: SpawnerSetup): AgentSpawner {
  const catalog = () => o.parent.agents?.() ?? { agents: [], problems: [] };
  return {
    catalog: () => catalog().agents.map((a) => ({ name: a.name, description: a.description })),
    async *run(request: SpawnRequest, signal: AbortSignal): AsyncGenerator<AgentEvent, SpawnResult> {
      const def = catalog().agents.find((a) => a.name === request.agentType);
      if (!def) throw new Error(`There is no agent type "${request.agentType}".`);
      const id = randomBytes(8).toString('hex');
      const agentId = `agent-${id}`;
      const folder = path.join(o.sessionDir, 'subagents');
      mkdirSync(folder, { recursive: true });
      const transcriptFile = path.join(folder, `${agentId}.jsonl`);
      const model = subagentModel({
        parentModel: o.parentModel(),
        definitionModel: def.model,
        definitionSource: def.source,
        requested: request.model,
        env: process.env,
      });
      const info: AgentInfo = {
        agentId,
        parentId: o.agentId,
        toolUseId: request.toolUseId,
        name: request.description,
        agentType: def.name,
        model,
        startedAt: now(),
        transcriptFile,
      };
      const mode = () => childMode(o.parent.mode(), def.permissionMode);
      const depth = (o.parent.depth ?? 0) + 1;
      const child = o.create({
        ...o.parent,
        transcriptFile,
        sessionDir: o.sessionDir,
        agent: {
          agentId,
          parentId: o.agentId,
          agentType: def.name,
          name: request.description,
          toolUseId: request.toolUseId,
        },
        model,
        // A sub-agent does not fall back to another model on its own; its parent decides.
        fallbackModel: undefined,
        tools: toolsFor(def, o.parent.tools),
        // The session's MCP servers, narrowed to what the definition offers (like the tools above).
        mcp: mcpFor(def, o.parent.mcp),
        systemPrompt: def.systemPrompt,
        appendSystemPrompt: undefined,
        maxTurns: childMaxTurns(def.maxTurns, o.parent.maxTurns),
        initialMode: mode(),
        mode,
        handler: attributed(o.parent.handler, info),
        restrictGate: def.readOnly ? (g) => readOnlyGate(g, { runsChecks: def.runsChecks }) : undefined,
        // Only an agent whose definition lists the Agent tool may start agents of its own.
        // …and never deeper than MAX_AGENT_DEPTH: an agent file that lists itself cannot recurse forever.
        agents: def.canSpawn && depth < MAX_AGENT_DEPTH ? o.parent.agents : undefined,
        // The Skill tool (added by the runtime) only where the definition offers it, like any tool.
        skills:
          (def.tools === null || def.tools.includes('Skill')) && !def.disallowedTools.includes('Skill')
            ? o.parent.skills
            : undefined,
        depth,
        // Not the parent's own listener (`...o.parent`): that would skip the parent's total.
        onAgentEvent: o.onNested,
      });
      const started = performance.now();
      child.engine.start(info.startedAt, {
        agentId,
        parentId: o.agentId,
        agentType: def.name,
        name: request.description,
        toolUseId: request.toolUseId,
      });
      const tag = { agentId, parentId: o.agentId };
      yield { type: 'agent_started', info, ...tag };
      let toolUseCount = 0;
      // Stopped with its parent's call, or alone (a person stopping one member of the tree).
      const own = new AbortController();
      const onParentAbort = () => own.abort();
      if (signal.aborted) own.abort();
      else signal.addEventListener('abort', onParentAbort, { once: true });
      o.parent.agentStops?.set(agentId, own);
      try {
        // SubagentStart hooks: their context goes to the sub-agent with its prompt.
        const startContext = o.parent.hooks
          ? await subagentStartHook(o.parent.hooks, { agentId, agentType: def.name }, own.signal)
          : null;
        const turn = child.run(startContext ? `${request.prompt}\n\n${startContext}` : request.prompt, {
          signal: own.signal,
        });
        let result;
        for (;;) {
          const next = await turn.next();
          if (next.done) {
            result = next.value;
            break;
          }
          if (next.value.type === 'tool_start' && next.value.agentId === agentId) toolUseCount++;
          yield next.value;
        }
        const verdict = def.verdict ? parseVerdict(result.text) : undefined;
        const outcome = {
          reason: result.terminal.reason,
          text: result.text,
          endedAt: now(),
          ...(verdict ? { verdict } : {}),
        };
        yield { type: 'agent_ended', outcome, ...tag };
        const usage = child.engine.cost.totalUsage();
        return {
          ...outcome,
          agentId,
          agentType: def.name,
          model,
          costUsd: child.engine.ownCost.totalCostUsd,
          totalCostUsd: child.engine.cost.totalCostUsd,
          totalTokens: usage.inputTokens + usage.outputTokens,
          toolUseCount,
          durationMs: Math.round(performance.now() - started),
        };
      } finally {
        signal.removeEventListener('abort', onParentAbort);
        o.parent.agentStops?.delete(agentId);
        await child.engine.close();
      }
    },
  };
}
