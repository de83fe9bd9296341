/**
 * Main-process memory per sub-agent: idle (a runtime built, nothing running — what a worker waiting
 * for mail costs) and working (sub-agents started by Agent calls, all streaming at once), measured
 * as heap + external growth after a forced GC, divided by the number of agents.
 * Run with `npm run bench -- agents-memory`.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { spawn } from 'node:child_process';
import type { ScenarioInput } from '../src-main/devtools/scripted-api/scenario';
import { builtinAgents } from '../src-main/harness/agents/builtin-agents';
import { AnthropicModelClient } from '../src-main/harness/model/anthropic-client';
import { createRuntime, type RuntimeSetup } from '../src-main/harness/runtime/create-runtime';
import { builtinTools } from '../src-main/harness/tools/registry';
import { sanitizeEnv } from '../src-main/platform/env';
import { round } from './stats';

const AGENTS = 20;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function used(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

/** The scripted Messages API in a child process; resolves with its URL and a way to stop it. */
function scriptedApiProcess(scenario: ScenarioInput): Promise<{ url: string; close: () => Promise<void> }> {
  const server = path.resolve(import.meta.dirname, '../src-main/devtools/scripted-api/server.ts');
  const code = `import(${JSON.stringify(server)}).then(async ({ startScriptedApi }) => {
    const api = await startScriptedApi({ scenario: JSON.parse(process.env.SCENARIO) });
    process.stdout.write(api.url + '\\n');
  });`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', path.resolve(import.meta.dirname, 'raw-hooks.mjs'), '-e', code],
    {
      env: { ...process.env, SCENARIO: JSON.stringify(scenario), TSX_TSCONFIG_PATH: 'tsconfig.tools.json' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`The scripted API exited (${String(code)})`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = out.split('\n')[0];
      if (out.includes('\n') && url)
        resolve({
          url,
          close: () =>
            new Promise<void>((done) => {
              child.removeAllListeners('exit');
              child.once('exit', () => done());
              child.kill();
            }),
        });
    });
  });
}

export async function benchAgentsMemory() {
  const streamText = 'working '.repeat(400);
  const scenario: ScenarioInput = {
    steps: [
      {
        when: { lastUserText: 'fan out' },
        reply: {
          content: Array.from({ length: AGENTS }, (_, i) => ({
            type: 'tool_use' as const,
            id: `call${i}`,
            name: 'Agent',
            input: { description: `worker ${i}`, prompt: `JOB ${i}`, subagent_type: 'general-purpose' },
          })),
          stop_reason: 'tool_use',
        },
      },
      // Slow streams, so every sub-agent is mid-reply when memory is read.
      {
        when: { lastUserText: 'JOB' },
        times: true,
        reply: { content: [{ type: 'text', text: streamText }], chunkChars: 8, delayMs: 10 },
      },
      { reply: { content: [{ type: 'text', text: 'all done' }] }, times: true },
    ],
  };
  // The server runs in a process of its own: what it keeps (recorded requests, sockets) is not
  // the main process's memory.
  const api = await scriptedApiProcess(scenario);
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-bench-agents-'));
  mkdirSync(path.join(project, '.data'));
  const client = new AnthropicModelClient({ apiKey: 'bench', baseURL: api.url, maxRetries: 0 });
  const base = (id: string): RuntimeSetup => ({
    sessionId: id,
    projectRoot: project,
    transcriptFile: path.join(project, '.data', `${id}.jsonl`),
    locations: { home: project, projectRoot: project, policyFile: path.join(project, 'no-policy.json') },
    home: project,
    sandbox: null,
    initialMode: 'bypassPermissions',
    mode: () => 'bypassPermissions',
    handler: null,
    model: 'claude-sonnet-4-5',
    tools: builtinTools(),
    models: { clientFor: () => client },
    toolEnv: sanitizeEnv(process.env),
    agents: () => ({ agents: builtinAgents(), problems: [] }),
  });

  try {
    // Idle: runtimes built as a team's workers are, nothing running.
    const before = used();
    const idle = Array.from({ length: AGENTS }, (_, i) =>
      createRuntime({
        ...base(`idle-${i}`),
        agent: {
          agentId: `agent-idle-${i}`,
          parentId: 'p',
          agentType: 'general-purpose',
          name: `w${i}`,
          toolUseId: null,
        },
      }),
    );
    for (const r of idle) r.engine.start();
    const idleBytes = (used() - before) / AGENTS;
    await Promise.all(idle.map((r) => r.engine.close()));

    // Working: one parent fans out to AGENTS sub-agents; read memory while all are streaming.
    const parent = createRuntime(base(randomUUID()));
    parent.engine.start();
    const baseline = used();
    let streaming = new Set<string>();
    let peak = 0;
    let sampled = false;
    const turn = parent.run('fan out');
    for (;;) {
      const next = await turn.next();
      if (next.done) break;
      const e = next.value;
      if (e.type === 'text_delta' && e.agentId !== parent.agentId) streaming.add(e.agentId);
      if (!sampled && streaming.size === AGENTS) {
        sampled = true;
        peak = used() - baseline;
      }
    }
    streaming = new Set();
    await parent.engine.close();
    return {
      name: 'agents-memory',
      agents: AGENTS,
      idleKbPerAgent: round(idleBytes / 1024),
      workingKbPerAgent: sampled ? round(peak / AGENTS / 1024) : null,
      allStreamingAtOnce: sampled,
    };
  } finally {
    await api.close();
    rmSync(project, { recursive: true, force: true });
  }
}
