import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { startScriptedApi, type ScriptedApi } from '../devtools/scripted-api/server';
import {
  QueryEngine,
  type EngineEvent,
  type EngineOptions,
  type TurnResult,
} from '../harness/engine/query-engine';
import { AnthropicModelClient } from '../harness/model/anthropic-client';
import type { ModelRouter } from '../harness/model/model-client';
import { testGate } from './gate';
import { readTranscript, TranscriptWriter } from '../harness/session/transcript-file';
import { builtinTools } from '../harness/tools/registry';
import { sanitizeEnv } from '../platform/env';
import { tempDir } from './temp';

export interface TurnRun {
  events: EngineEvent[];
  result: TurnResult;
  transitions: string[];
}

/**
 * A QueryEngine on a temp project whose model is the scripted Messages API, reached through the real
 * SDK (its own retries off: the loop retries). Waits between retries are recorded, not slept.
 */
export async function testEngine(scenario: ScenarioInput, overrides: Partial<EngineOptions> = {}) {
  const api: ScriptedApi = await startScriptedApi({ scenario });
  const project = tempDir('carapace-project-');
  const sessionDir = tempDir('carapace-session-');
  const file = path.join(sessionDir, 'session.jsonl');
  const writer = new TranscriptWriter(file);
  const delays: number[] = [];
  const client = new AnthropicModelClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
  const models: ModelRouter = { clientFor: () => client };
  const options: EngineOptions = {
    sessionId: randomUUID(),
    projectRoot: project,
    cwd: project,
    sessionDir,
    writer,
    model: 'claude-sonnet-4-5',
    permissionMode: 'bypassPermissions',
    gate: testGate(project, overrides.permissionMode ?? 'bypassPermissions'),
    tools: builtinTools(),
    models,
    toolEnv: sanitizeEnv(process.env),
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
    ...overrides,
  };
  const engine = new QueryEngine(options);
  engine.start();
  onTestFinished(async () => {
    await engine.close();
    await api.close();
  });

  async function run(
    prompt: string,
    turnOptions: { tokenBudget?: number; signal?: AbortSignal } = {},
    onEvent?: (e: EngineEvent) => void,
  ): Promise<TurnRun> {
    const events: EngineEvent[] = [];
    const gen = engine.submit(prompt, turnOptions);
    for (;;) {
      const next = await gen.next();
      if (next.done) {
        const transitions = events.flatMap((e) => (e.type === 'transition' ? [e.transition.reason] : []));
        return { events, result: next.value, transitions };
      }
      events.push(next.value);
      onEvent?.(next.value);
    }
  }

  return { engine, api, delays, file, project, options, run, lines: () => readTranscript(file) };
}

export const text = (t: string) => ({ type: 'text' as const, text: t });
export const toolUse = (name: string, input: Record<string, unknown>, id?: string) => ({
  type: 'tool_use' as const,
  name,
  input,
  ...(id ? { id } : {}),
});
