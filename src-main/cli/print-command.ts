import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEMO_MODEL_ID } from '@shared/domain/models';
import { DemoModelClient } from '../devtools/demo';
import type { TurnResult } from '../harness/engine/query-engine';
import { DEFAULT_CLAUDE_MODEL } from '../harness/model/catalog';
import { DefaultModelRouter } from '../harness/model/router';
import { trustedModes } from '../harness/permissions/default-mode';
import { loadPermissionSources, managedPolicyError } from '../harness/permissions/settings-sources';
import { TrustStore, trustFile } from '../harness/permissions/trust';
import type { TrustItem } from '@shared/domain/trust';
import { readTranscript } from '../harness/session/transcript-file';
import { SettingsService } from '../harness/settings/settings-service';
import { builtinTools } from '../harness/tools/registry';
import { createAgentCatalog } from '../harness/agents/catalog';
import { createSkillCatalog } from '../harness/skills/catalog';
import { loadPluginComponents } from '../harness/plugins/load-plugins';
import { withPluginAgents } from '../harness/plugins/plugin-agents';
import { pluginMcpServers } from '../harness/plugins/plugin-mcp';
import { SandboxService } from '../harness/bash/sandbox';
import { sanitizeEnv } from '../platform/env';
import { carapaceHome, dataPaths, managedSettingsFile, projectSlug } from '../platform/paths';
import { homedir } from 'node:os';
import { MemorySecretStore } from '../platform/secrets';
import { silentLogger } from '../platform/logger';
import { SessionIndex } from '../workspace/session-index';
import { UsageError } from './args';
import type { PrintOptions } from './print-args';
import { createRuntime } from '../harness/runtime/create-runtime';
import { printBudget } from './print-budget';
import { startTelemetry } from '../harness/cost/otel';
import { resultObject, streamLine } from './print-output';
import { terminalSafe } from './terminal-text';
import { HookRunner } from '../harness/hooks/dispatch';
import { collectHooks } from '../harness/hooks/sources';
import { sessionEndHook, sessionStartHook } from '../harness/hooks/wire';
import { projectServerApproval } from '../harness/mcp/approval';
import { createMcpManager } from '../harness/mcp/manager';
import { prepareTurn } from '../harness/commands/prepare-turn';
import { commandTurnModel } from '../harness/commands/turn-model';
import { commandGrants } from '../harness/commands/grants';

const COORDINATOR_TOOLS = ['TeamCreate', 'TeamDelete', 'SendMessage', 'SyntheticOutput'];

export interface PrintIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

async function readStdin(stdin: NodeJS.ReadStream): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** Which session file to write: a new one, the one named by --resume, or the newest (--continue). */
function pickSession(o: PrintOptions, dir: string): { id: string; file: string; resumed: boolean } {
  if (o.resume !== null) {
    if (!/^[\w-]{1,100}$/.test(o.resume)) throw new UsageError(`"${o.resume}" is not a session id.`);
    const file = path.join(dir, `${o.resume}.jsonl`);
    if (!existsSync(file)) throw new UsageError(`No session ${o.resume} in this project (${dir}).`);
    return { id: o.resume, file, resumed: true };
  }
  if (o.continue) {
    const newest = new SessionIndex(dir, silentLogger)
      .list()
      .sort(
        (a, b) =>
          b.meta.updatedAt.localeCompare(a.meta.updatedAt) ||
          statSync(b.file).mtimeMs - statSync(a.file).mtimeMs,
      )[0];
    if (!newest) throw new UsageError('There is no earlier session in this project to continue.');
    return { id: newest.meta.id, file: newest.file, resumed: true };
  }
  const id = randomUUID();
  return { id, file: path.join(dir, `${id}.jsonl`), resumed: false };
}

/** One line on what the folder's own settings would have widened, had it been trusted. */
function untrustedNotice(items: readonly TrustItem[]): string {
  const shown = items.slice(0, 4).map((i) => i.label);
  const more = items.length > shown.length ? `; and ${items.length - shown.length} more` : '';
  return `this folder's own settings (.claude/) are not trusted, so what they widen is ignored: ${shown.join('; ')}${more}. Open the folder in Carapace to review and trust them.`;
}

/**
 * `carapace -p PROMPT`: one headless turn in the current folder, printed as text, json or
 * stream-json. Nothing here waits for a person: a call that would need approval is refused and listed
 * in `permission_denials`. Ctrl+C stops the turn and still prints the result. Exit code 0 on success,
 * 1 on error, 130 when interrupted.
 */
export async function runPrint(o: PrintOptions, io: PrintIo): Promise<number> {
  const started = performance.now();
  const prompt = (o.prompt ?? (await readStdin(io.stdin))).trim();
  if (prompt === '') throw new UsageError('-p needs a prompt: as an argument, or on standard input.');

  const paths = dataPaths(carapaceHome(io.env));
  const projectRoot = realpathSync(io.cwd);
  // A prompt that starts with a custom command runs it (its body, the arguments put in); an unknown
  // `/name` stops here, before any session is made, as Claude Code's "Unknown slash command".
  const slash = prepareTurn(
    prompt,
    { projectRoot, home: io.env['HOME'] ?? homedir(), carapaceHome: paths.home },
    'print',
  );
  for (const p of slash.problems) io.stderr.write(`carapace: command file ${p.file}: ${p.message}\n`);
  if (slash.kind === 'error') {
    io.stderr.write(`carapace: ${slash.message}\n`);
    return 1;
  }
  const grants = slash.command
    ? commandGrants(slash.command, projectRoot, new TrustStore(trustFile(paths.home)))
    : { granted: [], refused: [] };
  if (slash.command && grants.refused.length > 0)
    io.stderr.write(
      `carapace: /${slash.command.name}: not pre-approved (this project's command asks for them, and the folder's trust does not cover them; they are decided as usual): ${grants.refused.join(', ')}\n`,
    );
  const dir = paths.projectDir(projectSlug(projectRoot));
  mkdirSync(dir, { recursive: true });
  const session = pickSession(o, dir);
  const lines = session.resumed ? readTranscript(session.file) : null;
  for (const problem of lines?.problems ?? [])
    io.stderr.write(`carapace: transcript ${session.file}: ${problem}\n`);
  // A coordinator session stays one when resumed; an ordinary one cannot become one.
  const wasCoordinator = lines?.lines.some((l) => l.type === 'session' && l.coordinator === true) ?? false;
  if (o.coordinator && lines && !wasCoordinator)
    throw new UsageError(
      `Session ${session.id} is not a coordinator session; --coordinator starts a new one (leave out --resume/--continue).`,
    );
  const coordinator = o.coordinator || wasCoordinator;

  // Before anything else starts: a managed policy that exists but cannot be read stops the run, since
  // going on would mean running unmanaged.
  const policyFile = managedSettingsFile(io.env);
  const policyError = managedPolicyError(policyFile);
  if (policyError !== null) {
    io.stderr.write(`carapace: ${policyError}\n`);
    return 1;
  }

  const settings = new SettingsService(paths.settingsFile, io.env, new MemorySecretStore());
  const demo = new DemoModelClient(0);
  const models = new DefaultModelRouter(settings, demo);
  const fallbackModel = o.fallbackModel ?? settings.current.fallbackModel;
  const locations = {
    home: paths.home,
    projectRoot,
    policyFile,
    // Trust is only read here: print mode never asks, it honours what the person decided in the app.
    trust: new TrustStore(trustFile(paths.home)),
    cli: {
      // A command's `allowed-tools` are allowed for its run (a project's only as far as trusted; deny rules still win).
      allowedTools: [...o.allowedTools, ...grants.granted],
      disallowedTools: o.disallowedTools,
      permissionMode: o.permissionMode,
    },
  };
  const sources = loadPermissionSources(locations);
  for (const problem of sources.problems) io.stderr.write(`carapace: ${problem}\n`);
  // The project's hooks are not among what is left out: they run in -p (see collectHooks below).
  const leftOut = sources.untrusted.filter((i) => i.kind !== 'hook');
  // The labels are the repository's text (a rule, a plugin key): never a terminal escape.
  if (leftOut.length > 0) io.stderr.write(`carapace: ${terminalSafe(untrustedNotice(leftOut))}\n`);
  // The flag, else the default of the trusted sources: a project's own files cannot widen the mode.
  const modes = trustedModes(locations);
  if (o.permissionMode === 'bypassPermissions' && !modes.bypass.available) {
    io.stderr.write(`carapace: --permission-mode bypassPermissions is refused: ${modes.bypass.reason}.\n`);
    return 1;
  }
  for (const problem of modes.problems) io.stderr.write(`carapace: ${problem}\n`);
  const mode = modes.defaultMode;
  const home = io.env['HOME'] ?? homedir();
  const toolEnv = sanitizeEnv(io.env);
  const sandbox = new SandboxService({ bwrapPath: io.env['CARAPACE_BWRAP'] });
  // The probe (loading the sandbox runtime, a sandboxed `true`: 0.1–0.5 s) is not on the way to the
  // first request: it starts at the first permission decision, which waits for it
  // (create-runtime.ts), so what the sandbox allows is decided with its real status.
  if (sources.sandbox.enabled)
    void sandbox.checkWhenNeeded().then((status) => {
      if (!status.available)
        io.stderr.write(
          `carapace: Bash runs without the OS sandbox (${status.reason ?? 'unknown reason'}); commands that are not read-only need approval.\n`,
        );
    });
  // Spending limits: --max-budget-usd and the settings' budgets. Nobody can be asked to allow more
  // here, so reaching one ends the run (result subtype error_max_budget_usd).
  const budget = printBudget({
    sessionId: session.id,
    projectRoot,
    locations,
    maxBudgetUsd: o.maxBudgetUsd,
    carapaceHome: paths.home,
    spentBefore: () => runtime.engine.cost.snapshot().totalCostMicros,
    log: (line) => runtime.engine.appendLine(line),
    stderr: (text) => io.stderr.write(`carapace: ${text}\n`),
  });
  // Hooks from every settings source. The project's own run here, as in Claude Code: running -p in
  // a folder is the person's choice (its allow rules still need the folder's trust).
  // The enabled plugins' hooks join them (source plugin).
  const hookSources = collectHooks({
    locations,
    projectHooksAllowed: true,
    plugins: loadPluginComponents(locations),
  });
  for (const problem of hookSources.problems) io.stderr.write(`carapace: ${problem}\n`);
  const hooks =
    hookSources.hooks.length > 0
      ? new HookRunner({
          hooks: () => hookSources.hooks,
          sessionId: session.id,
          transcriptPath: session.file,
          projectDir: projectRoot,
          cwd: () => projectRoot,
          permissionMode: () => mode,
          env: toolEnv,
          headerEnv: Object.fromEntries(Object.entries(io.env).filter(([k]) => !k.startsWith('ANTHROPIC_'))),
          home,
          onProblem: (problem) => io.stderr.write(`carapace: ${problem}\n`),
          onRecord: (r) => {
            const what = `${r.event} hook (${r.label})`;
            if (r.outcome === 'error' || r.outcome === 'timeout' || r.outcome === 'skipped')
              io.stderr.write(`carapace: ${what}: ${r.problem ?? r.outcome}\n`);
            else if (o.verbose) io.stderr.write(`[hook] ${what}: ${r.outcome} in ${r.durationMs} ms\n`);
          },
        })
      : undefined;
  // MCP servers: the project's .mcp.json (only those approved in the person's settings or trusted in
  // the app: the project cannot approve its own), the user's ~/.claude.json, and --mcp-config. A
  // coordinator has only its team tools, so it starts none.
  const mcpApproval = projectServerApproval({
    projectRoot,
    carapaceHome: paths.home,
    policyFile,
    trust: locations.trust,
    onProblem: (m) => io.stderr.write(`carapace: ${m}\n`),
  });
  const mcp = coordinator
    ? undefined
    : createMcpManager({
        projectRoot,
        homeDir: home,
        env: io.env,
        approveProjectServer: mcpApproval.approve,
        disabledServer: (name, scope) => scope === 'project' && mcpApproval.disabled(name),
        cliConfigs: o.mcpConfigs,
        strict: o.strictMcpConfig,
        // The enabled plugins' servers (scope plugin, mcp__plugin_<plugin>_<server>__<tool>).
        plugins: () => pluginMcpServers(locations, io.env),
        onProblem: (m) => io.stderr.write(`carapace: ${m}\n`),
      });
  const runtime = createRuntime({
    hooks,
    mcp,
    budget,
    sessionId: session.id,
    projectRoot,
    transcriptFile: session.file,
    locations,
    home,
    sandbox,
    initialMode: mode,
    mode: () => mode,
    // Print mode never waits for a person: what would need approval is refused and reported.
    handler: null,
    model: o.model ?? (settings.demoOnly ? DEMO_MODEL_ID : (settings.current.model ?? DEFAULT_CLAUDE_MODEL)),
    fallbackModel,
    tools: builtinTools(),
    models,
    toolEnv,
    appendSystemPrompt: o.appendSystemPrompt ?? undefined,
    maxTurns: o.maxTurns ?? undefined,
    // The enabled plugins' agents join the files' (plugin:agent).
    agents: withPluginAgents(
      createAgentCatalog({
        projectRoot,
        home,
        carapaceHome: paths.home,
        // A broken agent file is reported and skipped; the run goes on.
        onProblems: (problems) => {
          for (const p of problems) io.stderr.write(`carapace: agent file ${p.file}: ${p.message}\n`);
        },
      }),
      () => loadPluginComponents(locations),
    ),
    skills: createSkillCatalog({
      projectRoot,
      home,
      carapaceHome: paths.home,
      // The person's installed plugins that are enabled: their skills join the rest.
      plugins: () => loadPluginComponents(locations),
      // A broken skill is reported and skipped; the run goes on.
      onProblems: (problems) => {
        for (const p of problems) io.stderr.write(`carapace: skill ${p.file}: ${p.message}\n`);
      },
    }),
    // The run waits for its workers: the process would otherwise end under them.
    coordinator: coordinator ? { waitForTeam: true } : undefined,
    // The process ends with the run: a consolidation started now would be killed at exit.
    autoDream: false,
  });
  for (const problem of runtime.team?.problems ?? []) io.stderr.write(`carapace: team: ${problem}\n`);
  const { engine } = runtime;
  if (lines) {
    engine.resume(lines.lines);
    if (o.model !== null) engine.setModel(o.model);
  } else if (coordinator)
    // Marked on the session line, so the session reopens (here or in the app) as a coordinator.
    engine.appendLine({
      type: 'session',
      version: 1,
      sessionId: session.id,
      projectPath: projectRoot,
      createdAt: new Date().toISOString(),
      model: engine.model,
      coordinator: true,
    });
  else engine.start();
  // A command's `model` is the model of its turn; the session's own comes back after it.
  const sessionModel = engine.model;
  if (slash.command) {
    const pick = commandTurnModel(sessionModel, slash.command);
    if (pick.notice) io.stderr.write(`carapace: ${pick.notice}\n`);
    if (pick.model !== sessionModel) engine.setModel(pick.model);
  }

  // Every server connects (or fails, or times out: MCP_TIMEOUT) before the first request.
  await mcp?.start();
  const write = (obj: object) => io.stdout.write(`${JSON.stringify(obj)}\n`);
  if (o.outputFormat === 'stream-json') {
    write({
      type: 'system',
      subtype: 'init',
      session_id: session.id,
      cwd: projectRoot,
      model: engine.model,
      permissionMode: mode,
      tools: coordinator
        ? COORDINATOR_TOOLS
        : [
            ...builtinTools().map((t) => t.name),
            'Agent',
            'Skill',
            ...(mcp?.tools() ?? []).map((t) => t.name),
          ].filter((n) => !o.disallowedTools.includes(n)),
      // As Claude Code: each server with its status (pending while it still connects).
      mcp_servers: (mcp?.list() ?? []).map((m) => ({
        name: m.name,
        status: m.state === 'connecting' ? 'pending' : m.state,
      })),
    });
  }

  // Optional OpenTelemetry export of cost and tokens (CARAPACE_ENABLE_TELEMETRY=1 and an endpoint);
  // otherwise nothing is loaded. Flushed below, once the last usage line is written, before exit.
  const telemetry = await startTelemetry(io.env);
  let interrupted = false;
  // Also ends a coordinator's wait for its team, when no turn is running to cancel.
  const stop = new AbortController();
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    io.stderr.write('carapace: interrupted; stopping (Ctrl+C again to quit at once)…\n');
    stop.abort();
    engine.cancel();
  };
  // SIGTERM (a supervisor, `timeout`) stops the run the same way, so the closing below still ends the
  // sandbox and its shell (nothing left in the project); the sandbox runtime's own SIGTERM hook would
  // otherwise keep the process from ending at all.
  const terminated = { by: false };
  const onSigterm = () => {
    if (terminated.by) process.exit(143);
    terminated.by = true;
    stop.abort();
    engine.cancel();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  let result: TurnResult;
  try {
    // SessionStart: its context goes with the prompt (hooks/wire.ts); its messages to stderr.
    if (hooks)
      for (const m of await sessionStartHook(hooks, session.resumed ? 'resume' : 'startup', stop.signal))
        io.stderr.write(`carapace: ${m}\n`);
    const turn = runtime.run(slash.prompt, {
      signal: stop.signal,
      ...(o.tokenBudget !== null ? { tokenBudget: o.tokenBudget } : {}),
    });
    // Which Agent call started each sub-agent: its messages carry that id as parent_tool_use_id.
    const startedBy = new Map<string, string | null>();
    for (;;) {
      const next = await turn.next();
      if (next.done) {
        result = next.value;
        break;
      }
      const e = next.value;
      if (e.type === 'agent_started') startedBy.set(e.agentId, e.info.toolUseId);
      if (e.type === 'agent_started' || e.type === 'agent_ended') continue;
      if (e.type === 'item') {
        // A sub-agent's prompt is its first user message (Claude Code prints it, tagged).
        const { item } = e;
        if (o.outputFormat === 'stream-json' && e.agentId !== runtime.agentId && item.kind === 'message')
          write(
            streamLine({ type: 'user', item }, session.id, false, startedBy.get(e.agentId) ?? null) ?? {},
          );
        continue;
      }
      if (e.agentId !== runtime.agentId && e.type !== 'assistant' && e.type !== 'user') continue;
      if (o.outputFormat === 'stream-json') {
        const line = streamLine(e, session.id, o.verbose, startedBy.get(e.agentId) ?? null);
        if (line) write(line);
      } else if (o.verbose && e.type === 'transition')
        io.stderr.write(`[transition] ${e.transition.reason}: ${e.transition.detail}\n`);
    }
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    if (hooks) for (const m of await sessionEndHook(hooks, 'other')) io.stderr.write(`carapace: ${m}\n`);
    if (engine.model !== sessionModel) engine.setModel(sessionModel);
    // Workers end with the run; the team stays in the session folder for a later --resume.
    await runtime.team?.close();
    await engine.close();
    await sandbox.close();
    await mcp?.close();
    await demo.close();
    await telemetry?.shutdown();
  }

  const output = runtime.team?.output ?? null;
  const summary = {
    ...resultObject(result, engine.cost, Math.round(performance.now() - started)),
    // A coordinator's SyntheticOutput is the run's result.
    ...(output !== null && result.terminal.reason === 'completed'
      ? { result: JSON.stringify(output), structured_output: output }
      : {}),
  };
  if (o.outputFormat === 'text') {
    if (summary.is_error) io.stderr.write(`carapace: ${summary.result}\n`);
    else io.stdout.write(`${summary.result}\n`);
  } else write(summary);
  if (result.terminal.reason === 'aborted') return terminated.by ? 143 : 130;
  return summary.is_error ? 1 : 0;
}
