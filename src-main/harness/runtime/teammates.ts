import { lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import { AppError, errnoCode } from '../../platform/errors';
import { subagentModel } from '../agents/model-choice';
import { readOnlyGate } from '../agents/read-only-gate';
import { readTranscript } from '../session/transcript-file';
import { workerRole } from '../teams/mail-format';
import { SubmitPlanTool } from '../teams/tools/submit-plan';
import type { BuiltWorker, WorkerBuild, WorkerFactory } from '../teams/types';
import { childMaxTurns, childMode, mcpFor, toolsFor } from './subagents';
import type { AgentRuntime, RuntimeSetup } from './types';

/** A worker's saved transcript larger than this is not taken up (it is read whole to resume). */
export const MAX_WORKER_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/**
 * Refuses a worker's transcript path that holds anything but a plain file of a sane size. Worker ids
 * come from the team's roster, so the file can be planted before the worker first works: a FIFO
 * there would block the main process on open, a link would send its transcript elsewhere.
 */
function checkTranscriptPath(file: string, name: string): void {
  let st;
  try {
    st = lstatSync(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw error;
  }
  if (!st.isFile())
    throw new AppError('CORRUPT_DATA', `Worker ${name}'s transcript (${file}) is not a regular file.`);
  if (st.size > MAX_WORKER_TRANSCRIPT_BYTES)
    throw new AppError(
      'CORRUPT_DATA',
      `Worker ${name}'s transcript (${file}) is larger than ${MAX_WORKER_TRANSCRIPT_BYTES / 1024 / 1024} MB.`,
    );
}

export interface WorkerFactorySetup {
  /** The coordinator's setup: workers get its permission sources, person, models and tools. */
  parent: RuntimeSetup;
  sessionDir: string;
  coordinatorId: string;
  parentModel: () => string;
  /** createRuntime itself, passed in so this file need not import it (no cycle). */
  create: (s: RuntimeSetup) => AgentRuntime;
}

/**
 * Builds a coordinator's workers: each a runtime of its own (the same createRuntime) with its agent
 * type's tools and prompt plus its role in the team, its own context, transcript and cost, and the
 * session's person behind the team's permission handler. Like a sub-agent, but started by no tool
 * call (`toolUseId` null) and kept across turns.
 */
export function createWorkerFactory(o: WorkerFactorySetup): WorkerFactory {
  const catalog = () => o.parent.agents?.().agents ?? [];
  return {
    agentTypes: () => catalog().map((a) => ({ name: a.name, description: a.description })),
    build(b: WorkerBuild): BuiltWorker {
      const def = catalog().find((a) => a.name === b.agentType);
      if (!def) throw new AppError('NOT_FOUND', `There is no agent type "${b.agentType}" (any more).`);
      checkTranscriptPath(b.transcriptFile, b.name);
      // A restored worker keeps the model it was given, unless the session is on the free demo
      // model: a roster or transcript naming a paid model must not turn a demo into paid calls.
      const model =
        b.resume && b.model
          ? subagentModel({ parentModel: o.parentModel(), definitionModel: b.model })
          : subagentModel({
              parentModel: o.parentModel(),
              definitionModel: def.model,
              definitionSource: def.source,
              requested: b.model,
              env: process.env,
            });
      // Plan mode until its plan is approved; then its type's mode, never wider than the session's.
      const mode = () => (b.inPlanMode() ? 'plan' : childMode(o.parent.mode(), def.permissionMode));
      const identity = {
        agentId: b.agentId,
        parentId: o.coordinatorId,
        agentType: def.name,
        name: b.name,
        toolUseId: null,
      };
      mkdirSync(path.dirname(b.transcriptFile), { recursive: true });
      const runtime = o.create({
        ...o.parent,
        coordinator: undefined,
        teammate: b.capability,
        transcriptFile: b.transcriptFile,
        sessionDir: o.sessionDir,
        agent: identity,
        model,
        fallbackModel: undefined,
        tools: [...toolsFor(def, o.parent.tools), ...(b.planMode ? [SubmitPlanTool] : [])],
        // The session's MCP servers, narrowed to what its agent type offers.
        mcp: mcpFor(def, o.parent.mcp),
        systemPrompt: `${def.systemPrompt}\n\n${workerRole(b)}`,
        appendSystemPrompt: undefined,
        maxTurns: childMaxTurns(def.maxTurns, o.parent.maxTurns),
        initialMode: mode(),
        mode,
        handler: b.handler(o.parent.handler),
        restrictGate: def.readOnly ? (g) => readOnlyGate(g, { runsChecks: def.runsChecks }) : undefined,
        agents: def.canSpawn ? o.parent.agents : undefined,
        onAgentEvent: b.onAgentEvent,
      });
      // After a restart it takes up its transcript: dangling calls are closed as interrupted.
      if (b.resume) {
        runtime.engine.resume(readTranscript(b.transcriptFile).lines);
        // Its transcript's own model line is not the word on that either.
        runtime.engine.model = model;
      } else runtime.engine.start(b.createdAt, identity);
      return {
        agentType: def.name,
        model,
        run: (prompt, options) => {
          // A session switched to the free demo model since the worker was made: its workers follow
          // from their next turn (and go back to their own model when the session does).
          runtime.engine.model = o.parentModel() === DEMO_MODEL_ID ? DEMO_MODEL_ID : model;
          return runtime.run(prompt, options);
        },
        close: () => runtime.engine.close(),
      };
    },
  };
}
