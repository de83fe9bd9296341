import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { smallModelFrom } from '../memory/recall/small-model';
import { sideRequest } from '../model/side-request';
import type { QueryEngine } from '../engine/query-engine';
import type { PermissionGate } from '../permissions/gate';
import type { AgentRuntime, RuntimeSetup } from './types';
import type { HookModel } from '../hooks/run-model';

/** The only tools an agent hook's verifier gets: it looks, it never changes anything. */
const VERIFIER_TOOLS: ReadonlySet<string> = new Set(['Read', 'Glob', 'Grep']);
/** Turns a verifier may take before it must answer. */
const VERIFIER_MAX_TURNS = 8;

const VERIFIER_SYSTEM =
  'You verify a condition for a hook of a coding agent. Use the read-only tools (Read, Glob, Grep) to check the project as needed, then answer with one JSON object only: {"ok": true} or {"ok": false, "reason": "..."}.';

/** Read, Glob and Grep only, whatever else the session has (MCP tools, skills): a gate that says so. */
function verifierGate(inner: PermissionGate): PermissionGate {
  return {
    filterTools: (tools) => inner.filterTools(tools.filter((t) => VERIFIER_TOOLS.has(t.name))),
    check: (tool, input, ctx) =>
      VERIFIER_TOOLS.has(tool.name)
        ? inner.check(tool, input, ctx)
        : Promise.resolve({
            behavior: 'deny',
            message: `An agent hook's verifier may not use ${tool.name}.`,
          }),
  };
}

/**
 * The model prompt and agent hooks use, for a session's main agent: prompt hooks as side requests
 * through the session's model router, agent hooks as a sub-agent with read-only tools (no one to ask:
 * anything needing approval is refused; no hooks of its own, so a hook cannot start itself). What
 * either spends is the session's.
 */
export function sessionHookModel(o: {
  setup: RuntimeSetup;
  engine: QueryEngine;
  sessionDir: string;
  /** createRuntime itself, passed in so this file need not import it (no cycle). */
  create: (s: RuntimeSetup) => AgentRuntime;
}): HookModel {
  const { setup: s, engine } = o;
  return {
    smallModel: smallModelFrom(process.env),
    ask: (request, signal) =>
      sideRequest(
        s.models.clientFor(request.model),
        request,
        signal,
        (report) =>
          engine.absorb({
            type: 'usage',
            model: report.model,
            apiId: report.apiId,
            usage: report.usage,
            cacheWrite1hTokens: report.cacheWrite1hTokens ?? 0,
            webSearchRequests: report.webSearchRequests ?? 0,
            durationMs: report.durationMs ?? 0,
          }),
        'other',
      ),
    async verify(prompt, model, signal) {
      const agentId = `hook-agent-${randomBytes(6).toString('hex')}`;
      const folder = path.join(o.sessionDir, 'subagents');
      mkdirSync(folder, { recursive: true });
      const identity = {
        agentId,
        parentId: engine.agentId,
        agentType: 'hook-verifier',
        name: 'agent hook',
        toolUseId: null,
      };
      const child = o.create({
        ...s,
        transcriptFile: path.join(folder, `${agentId}.jsonl`),
        sessionDir: o.sessionDir,
        agent: identity,
        model: model ?? engine.model,
        fallbackModel: undefined,
        tools: s.tools.filter((t) => VERIFIER_TOOLS.has(t.name)),
        systemPrompt: VERIFIER_SYSTEM,
        appendSystemPrompt: undefined,
        maxTurns: VERIFIER_MAX_TURNS,
        handler: null,
        restrictGate: verifierGate,
        agents: undefined,
        coordinator: undefined,
        teammate: undefined,
        hooks: undefined,
        depth: (s.depth ?? 0) + 1,
        onAgentEvent: undefined,
      });
      child.engine.start(new Date().toISOString(), identity);
      try {
        const turn = child.run(prompt, { signal });
        for (;;) {
          const next = await turn.next();
          if (next.done) {
            if (signal.aborted) throw new Error('stopped');
            return next.value.text;
          }
          const e = next.value;
          if (e.type === 'usage') engine.absorb(e);
        }
      } finally {
        await child.engine.close();
      }
    },
  };
}
