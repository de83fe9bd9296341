import path from 'node:path';
import { agentTool } from '../agents/agent-tool';
import { QueryEngine } from '../engine/query-engine';
import type { AgentEvent, EngineEvent } from '../events/agent-event';
import { createSessionShell } from '../permissions/sandbox-policy';
import type { PermissionGate } from '../permissions/gate';
import { createSessionGate } from '../permissions/session-gate';
import { TranscriptWriter } from '../session/transcript-file';
import { FileHistory } from '../tools/file-history';
import { persistFileHistory } from '../rewind/history-store';
import { coordinatorRun, COORDINATOR_PROMPT } from '../teams/coordinator-run';
import { TeamManager } from '../teams/team-manager';
import { coordinatorTools } from '../teams/tools/coordinator-tools';
import { sessionMemoryFor } from '../memory/dream/session-memory';
import { SessionMemoryPrompt } from '../memory/memory-prompt';
import {
  compactHooks,
  PendingToolContext,
  promptHook,
  stopHook,
  subagentStopHook,
  withPostToolUseHooks,
  withPreToolUseHooks,
} from '../hooks/wire';
import { HookNoteQueue } from './hook-output-notes';
import { SkillGrants } from '../skills/grants';
import { skillTool } from '../skills/skill-tool';
import { HookVerdicts } from '../hooks/permission-verdicts';
import { hooksOnlyHandler } from '../hooks/permission-request';
import { sessionHookModel } from './hook-model';
import { createSpawner } from './subagents';
import { createWorkerFactory } from './teammates';
import type { AgentRuntime, RuntimeSetup } from './types';
import type { AnyTool } from '../tools/tool';

export type { AgentRuntime, RuntimeSetup } from './types';

/**
 * The one place a runtime is wired: permission gate, sandboxed shell, transcript writer, the Agent
 * tool with its spawner, and the engine. The workspace, print mode, sub-agents and teammates all
 * come through here, so they cannot drift apart.
 */
export function createRuntime(s: RuntimeSetup): AgentRuntime {
  const sandboxStatus = s.sandbox;
  // A sandbox probe still under way (print mode starts it without waiting) is waited for before any
  // decision, since the gate reads the sandbox's status to decide.
  const waitForSandbox = (inner: PermissionGate): PermissionGate => ({
    filterTools: (tools) => inner.filterTools(tools),
    check: async (tool, input, ctx) => {
      const probe = sandboxStatus?.statusInFlight;
      if (probe) await probe;
      return inner.check(tool, input, ctx);
    },
  });
  const sessionDir = s.sessionDir ?? path.join(path.dirname(s.transcriptFile), s.sessionId);
  const writer = new TranscriptWriter(s.transcriptFile);
  // One file history per session, kept in the main agent's transcript: its sub-agents and teammates
  // get it through the setup they are made from, so a rewind undoes their edits too.
  const fileHistory =
    s.fileHistory ??
    new FileHistory(
      persistFileHistory({ sessionDir, projectRoot: s.projectRoot, append: (line) => writer.append(line) }),
    );
  const agentId = s.agent?.agentId ?? s.sessionId;
  const parentId = s.agent?.parentId ?? null;
  const sandbox = s.sandbox;
  // A PreToolUse hook's allow/ask revises the rules' decision for its call (hooks/permission-verdicts.ts).
  const verdicts = s.hooks ? new HookVerdicts(s.locations.home) : undefined;
  // A running skill's allowed-tools: session allow rules until the turn ends (skills/grants.ts).
  const skillGrants = new SkillGrants(s.projectRoot);
  const gate = createSessionGate({
    sessionRules: () => skillGrants.rules(),
    sessionId: s.sessionId,
    locations: s.locations,
    mode: s.mode,
    sandboxActive: () => sandbox?.knownStatus?.available === true,
    // Where nobody can be asked, PermissionRequest hooks still may answer.
    handler:
      s.handler ?? (s.hooks?.has('PermissionRequest') ? hooksOnlyHandler(s.hooks, s.projectRoot) : null),
    ...(verdicts ? { revise: verdicts.revise } : {}),
    home: s.home,
    ...(s.onDecision ? { onDecision: s.onDecision } : {}),
  });
  // Assigned below: the spawner reads the engine's model and mode only once a call runs.
  let engine: QueryEngine | null = null;
  const tag = (e: EngineEvent): AgentEvent => ({ ...e, agentId, parentId });
  // Agents that run outside a tool call (background agents, a team's workers): their work reaches
  // whoever watches this one, and their cost this agent's total.
  const onNested = (e: AgentEvent) => {
    if (e.type === 'usage') built.absorb(e);
    s.onAgentEvent?.(e);
  };
  const team = s.coordinator
    ? new TeamManager({
        sessionId: s.sessionId,
        coordinatorId: agentId,
        sessionDir,
        workers: createWorkerFactory({
          parent: { ...s, fileHistory },
          sessionDir,
          coordinatorId: agentId,
          parentModel: () => engine?.model ?? s.model,
          create: createRuntime,
        }),
        onAgentEvent: onNested,
        agentStops: s.agentStops,
        events: s.coordinator.events,
        tasks: () => engine?.tasks,
      })
    : null;
  // A coordinator delegates through its team only: it has no Agent tool.
  const spawner =
    s.agents && !team
      ? createSpawner({
          parent: { ...s, fileHistory },
          sessionDir,
          agentId,
          parentModel: () => engine?.model ?? s.model,
          create: createRuntime,
          onNested,
        })
      : undefined;
  const ownTools = team
    ? coordinatorTools(() => team.coordinator().agentTypes())
    : [
        ...s.tools.filter((t) => t.name !== 'Agent' && t.name !== 'Skill'),
        ...(spawner ? [agentTool(spawner)] : []),
        ...(s.skills
          ? [
              skillTool({
                catalog: s.skills,
                grants: skillGrants,
                projectRoot: s.projectRoot,
                trust: s.locations.trust,
              }),
            ]
          : []),
      ];
  // A PreToolUse hook's additionalContext waits here for the call's result.
  // A sub-agent's tool events say who it is (agent_id, agent_type), as in Claude Code.
  const hookAgent = s.agent ? { agent_id: agentId, agent_type: s.agent.agentType } : undefined;
  const hookContext = new PendingToolContext();
  // The session's main agent shows every hook run of the session as a note in its transcript.
  const hookNotes = s.hooks && !s.agent ? new HookNoteQueue() : null;
  const stopNotes = hookNotes && s.hooks ? s.hooks.subscribe((r) => hookNotes.push(r)) : null;
  const tools = s.hooks ? withPostToolUseHooks(ownTools, s.hooks, hookContext, hookAgent) : ownTools;
  // MCP tools are read at every turn (servers connect, fail, restart); wrapped again only when they change.
  let mcpSeen: readonly AnyTool[] | null = null;
  let mcpTools: readonly AnyTool[] = [];
  const extraTools = (): readonly AnyTool[] => {
    const now = s.mcp?.tools() ?? [];
    if (now !== mcpSeen) {
      mcpSeen = now;
      mcpTools = s.hooks ? withPostToolUseHooks([...now], s.hooks, hookContext, hookAgent) : now;
    }
    return mcpTools;
  };
  // PreToolUse hooks run before the permission rules (hooks/wire.ts), outermost, so the input a hook
  // gives is judged by everything after it (a read-only agent's restriction included).
  const ruleGate = s.restrictGate ? s.restrictGate(waitForSandbox(gate)) : waitForSandbox(gate);
  const hookedGate = s.hooks
    ? withPreToolUseHooks(ruleGate, s.hooks, s.onDecision, hookContext, verdicts, hookAgent)
    : ruleGate;
  const shell = createSessionShell({
    sessionDir,
    locations: s.locations,
    home: s.home,
    env: s.toolEnv,
    sandbox,
  });
  engine = new QueryEngine({
    sessionId: s.sessionId,
    agentId,
    projectRoot: s.projectRoot,
    cwd: s.projectRoot,
    sessionDir,
    writer,
    fileHistory,
    model: s.model,
    fallbackModel: s.fallbackModel,
    permissionMode: s.initialMode,
    gate: hookedGate,
    tools,
    extraTools: s.mcp ? extraTools : undefined,
    models: s.models,
    toolEnv: s.toolEnv,
    maxRetries: s.maxRetries,
    appendSystemPrompt: team
      ? [s.appendSystemPrompt, COORDINATOR_PROMPT].filter((p) => p !== undefined && p !== '').join('\n\n')
      : s.appendSystemPrompt,
    systemPrompt: s.systemPrompt,
    maxTurns: s.maxTurns,
    sleep: s.sleep,
    // PreCompact/PostCompact around the main agent's compactions, automatic and /compact.
    ...(s.hooks && !s.agent ? { compaction: { autoCompact: { hooks: compactHooks(s.hooks) } } } : {}),
    agents: spawner,
    team: team?.coordinator() ?? s.teammate,
    taskEvents: { ...s.taskEvents, onAgentEvent: onNested },
    shell,
    // Memory recall and autoDream for a session's main agent (sub-agents and teammates get none).
    recall: s.agent
      ? undefined
      : sessionMemoryFor({ locations: s.locations, userHome: s.home, autoDream: s.autoDream }),
    memoryPrompt: s.agent ? undefined : new SessionMemoryPrompt({ locations: s.locations, userHome: s.home }),
    // CLAUDE.md files: the same home and $CARAPACE_HOME the session's settings come from.
    instructionRoots: { homeDir: s.home, carapaceHome: s.locations.home },
    // Every agent of the session awaits the same budget before each model request.
    budget: s.budget,
    // A session's prompts and its turn's end: its main agent's hooks only.
    ...(s.hooks && !s.agent
      ? { onStop: stopHook(s.hooks), onPromptSubmit: promptHook(s.hooks), hookNotes: hookNotes ?? undefined }
      : {}),
    // A sub-agent's end: SubagentStop (teammates and agent-hook verifiers are no sub-agents here).
    ...(s.hooks && s.agent && s.agent.toolUseId !== null
      ? {
          onStop: subagentStopHook(s.hooks, {
            agentId,
            agentType: s.agent.agentType,
            transcriptPath: s.transcriptFile,
          }),
        }
      : {}),
  });
  const built = engine;
  // prompt and agent hooks ask the session's model; the main agent's runtime lends it.
  if (s.hooks && !s.agent)
    s.hooks.useModel(sessionHookModel({ setup: s, engine: built, sessionDir, create: createRuntime }));
  // The session's long-lived sandboxed shell ends with its engine (a closed tab, a finished -p run).
  const closeEngine = built.close.bind(built);
  built.close = async () => {
    stopNotes?.();
    try {
      await closeEngine();
    } finally {
      await shell.close();
    }
  };
  function runTurn(
    prompt: Parameters<AgentRuntime['run']>[0],
    options: Parameters<AgentRuntime['run']>[1] = {},
  ): ReturnType<AgentRuntime['run']> {
    return forward(built.submit(prompt, options));
  }
  async function* forward(turn: ReturnType<QueryEngine['submit']>): ReturnType<AgentRuntime['run']> {
    try {
      for (;;) {
        const next = await turn.next();
        if (next.done) return next.value;
        const e = next.value;
        // A descendant's event is already tagged: it travels up as it is, flattened.
        yield e.type === 'tool_progress' && e.agent ? e.agent : tag(e);
      }
    } finally {
      // Closed early by the consumer: the engine stops the turn and saves what it had.
      await turn.return(undefined as never);
      // A skill pre-approves its tools while it runs, which ends with the turn.
      skillGrants.clear();
    }
  }
  return {
    engine: built,
    gate,
    sessionDir,
    agentId,
    parentId,
    team,
    run: team
      ? (prompt, options = {}) =>
          coordinatorRun({
            team,
            turn: runTurn,
            prompt,
            options,
            waitForTeam: s.coordinator?.waitForTeam === true,
          })
      : runTurn,
    // A retry answers what is already in the transcript; a coordinator's team waits as it was.
    retry: (options = {}) => forward(built.retry(options)),
  };
}
