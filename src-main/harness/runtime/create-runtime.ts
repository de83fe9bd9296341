import path from 'node:path';
import type { PermissionMode } from '@shared/domain/permissions';
import type { SandboxService } from '../bash/sandbox';
import { QueryEngine, type EngineOptions } from '../engine/query-engine';
import type { EngineGate, PermissionLogEntry } from '../permissions/engine-gate';
import type { PermissionHandler } from '../permissions/handlers';
import { createSessionShell } from '../permissions/sandbox-policy';
import { createSessionGate } from '../permissions/session-gate';
import type { SourceLocations } from '../permissions/settings-sources';
import { TranscriptWriter } from '../session/transcript-file';

/**
 * Everything one agent's runtime needs from whoever starts it (the workspace, `-p`, and later
 * sub-agents and teammates). Capabilities come in here; nothing below reaches back for them.
 */
export interface RuntimeSetup extends Pick<
  EngineOptions,
  | 'sessionId'
  | 'projectRoot'
  | 'model'
  | 'fallbackModel'
  | 'tools'
  | 'models'
  | 'toolEnv'
  | 'maxRetries'
  | 'appendSystemPrompt'
  | 'maxTurns'
  | 'taskEvents'
> {
  /** The agent's JSONL transcript; its own files go in a folder of the same name beside it. */
  transcriptFile: string;
  /** Where its permission rules, sandbox settings and trust come from. */
  locations: SourceLocations;
  /** The person's home, for `~/` in rules and the sandbox's secret paths. */
  home: string;
  sandbox: SandboxService | null;
  /** The mode it starts in, and the mode read at every decision (a change applies at the next call). */
  initialMode: PermissionMode;
  mode: () => PermissionMode;
  /** Who answers an "ask"; null where nobody can be asked (print mode): asks become denials. */
  handler: PermissionHandler | null;
  onDecision?: (entry: PermissionLogEntry) => void;
}

export interface AgentRuntime {
  engine: QueryEngine;
  gate: EngineGate;
  /** The folder of the agent's own files: large outputs, temp folder, quarantine. */
  sessionDir: string;
}

/**
 * The one place a runtime is wired: permission gate, sandboxed shell, transcript writer and engine.
 * The workspace and print mode used to each do this by hand, and drifted apart.
 */
export function createRuntime(s: RuntimeSetup): AgentRuntime {
  const sessionDir = path.join(path.dirname(s.transcriptFile), s.sessionId);
  const sandbox = s.sandbox;
  const gate = createSessionGate({
    sessionId: s.sessionId,
    locations: s.locations,
    mode: s.mode,
    sandboxActive: () => sandbox?.knownStatus?.available === true,
    handler: s.handler,
    home: s.home,
    ...(s.onDecision ? { onDecision: s.onDecision } : {}),
  });
  const engine = new QueryEngine({
    sessionId: s.sessionId,
    projectRoot: s.projectRoot,
    cwd: s.projectRoot,
    sessionDir,
    writer: new TranscriptWriter(s.transcriptFile),
    model: s.model,
    fallbackModel: s.fallbackModel,
    permissionMode: s.initialMode,
    gate,
    tools: s.tools,
    models: s.models,
    toolEnv: s.toolEnv,
    maxRetries: s.maxRetries,
    appendSystemPrompt: s.appendSystemPrompt,
    maxTurns: s.maxTurns,
    taskEvents: s.taskEvents,
    shell: createSessionShell({
      sessionDir,
      locations: s.locations,
      home: s.home,
      env: s.toolEnv,
      sandbox,
    }),
  });
  return { engine, gate, sessionDir };
}
