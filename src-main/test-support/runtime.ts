import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { PermissionMode } from '@shared/domain/permissions';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { createAgentCatalog } from '../harness/agents/catalog';
import type { AgentEvent } from '../harness/events/agent-event';
import type { TurnResult } from '../harness/engine/query-engine';
import { AnthropicModelClient } from '../harness/model/anthropic-client';
import type { ModelRouter } from '../harness/model/model-client';
import type { PermissionHandler } from '../harness/permissions/handlers';
import { createRuntime, type RuntimeSetup } from '../harness/runtime/create-runtime';
import { builtinTools } from '../harness/tools/registry';
import { sanitizeEnv } from '../platform/env';
import { tempDir } from './temp';

/**
 * A whole agent runtime (createRuntime, as the workspace builds it: real gate, Agent tool, spawner)
 * on a temp project, its model the scripted Messages API through the real SDK. No OS sandbox.
 */
export async function testRuntime(
  scenario: ScenarioInput,
  o: { mode?: PermissionMode; handler?: PermissionHandler | null; overrides?: Partial<RuntimeSetup> } = {},
) {
  const api = await startScriptedApi({ scenario });
  const project = tempDir('carapace-project-');
  const home = tempDir('carapace-home-');
  const dataDir = tempDir('carapace-data-');
  const sessionId = randomUUID();
  const transcriptFile = path.join(dataDir, `${sessionId}.jsonl`);
  const client = new AnthropicModelClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
  const models: ModelRouter = { clientFor: () => client };
  const problems: string[] = [];
  const mode = o.mode ?? 'bypassPermissions';
  const agentStops = new Map<string, AbortController>();
  const runtime = createRuntime({
    sessionId,
    projectRoot: project,
    transcriptFile,
    locations: { home, projectRoot: project, policyFile: path.join(home, 'no-policy.json') },
    home,
    sandbox: null,
    initialMode: mode,
    mode: () => mode,
    handler: o.handler ?? null,
    model: 'claude-sonnet-4-5',
    tools: builtinTools(),
    models,
    toolEnv: sanitizeEnv(process.env),
    sleep: () => Promise.resolve(),
    agents: createAgentCatalog({
      projectRoot: project,
      home,
      carapaceHome: home,
      onProblems: (p) => problems.push(...p.map((x) => `${x.file}: ${x.message}`)),
    }),
    agentStops,
    ...o.overrides,
  });
  runtime.engine.start();
  onTestFinished(async () => {
    await runtime.engine.close();
    await api.close();
  });

  async function run(
    prompt: string,
    turn: { signal?: AbortSignal } = {},
    onEvent?: (e: AgentEvent) => void,
  ): Promise<{ events: AgentEvent[]; result: TurnResult }> {
    const events: AgentEvent[] = [];
    const gen = runtime.run(prompt, turn);
    for (;;) {
      const next = await gen.next();
      if (next.done) return { events, result: next.value };
      events.push(next.value);
      onEvent?.(next.value);
    }
  }

  return { runtime, api, project, home, dataDir, transcriptFile, problems, agentStops, run };
}
