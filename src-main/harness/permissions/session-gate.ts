import type { PermissionMode } from '@shared/domain/permissions';
import { resolveMemoryDir } from './memory-settings';
import { PermissionEngine, type PermissionDecision, type SandboxPolicy } from './engine';
import { EngineGate, type PermissionLogEntry } from './engine-gate';
import type { PermissionHandler } from './handlers';
import { parseRule, type PermissionRule } from './rule';
import {
  addLocalRule,
  loadPermissionSources,
  type PermissionSources,
  type SourceLocations,
} from './settings-sources';
import { trustKey } from './trust';

export interface SessionGateOptions {
  sessionId: string;
  locations: SourceLocations;
  /** The session's mode; read on every decision, so a change applies from the next tool call. */
  mode: () => PermissionMode;
  /** Whether commands run inside the OS sandbox here. */
  sandboxActive: () => boolean;
  handler: PermissionHandler | null;
  home: string;
  onDecision?: (entry: PermissionLogEntry) => void;
  sessionRules?: () => readonly PermissionRule[];
  onProblems?: (problems: string[]) => void;
  /**
   * Revises each decision of the rules before it is acted on: a PreToolUse hook's allow or ask
   * (hooks/permission-verdicts.ts), so the decision is logged and asked like any other.
   */
  revise?: (
    d: PermissionDecision,
    tool: Parameters<PermissionEngine['decide']>[0],
    input: Record<string, unknown>,
    ctx: Parameters<PermissionEngine['decide']>[2],
  ) => PermissionDecision;
}

/**
 * A session's permission gate: rules re-read from every source on each decision (so an "Always
 * allow" or a hand edit of settings applies at once), the session's mode, and its handler for asks.
 * "Always allow" rules go to the project's `.claude/settings.local.json`.
 */
export function createSessionGate(o: SessionGateOptions): EngineGate {
  let lastProblems = '';
  // Rules a PermissionRequest hook added for this session (updatedPermissions, destination "session").
  const hookRules: PermissionRule[] = [];
  const sources = (): PermissionSources => {
    const s = loadPermissionSources({
      ...o.locations,
      session: [...(o.sessionRules?.() ?? []), ...hookRules],
    });
    const key = s.problems.join('\n');
    if (key !== lastProblems) {
      lastProblems = key;
      if (s.problems.length > 0) o.onProblems?.(s.problems);
    }
    return s;
  };
  const engine = new PermissionEngine(() => {
    const s = sources();
    const sandbox: SandboxPolicy = {
      active: s.sandbox.enabled && o.sandboxActive(),
      autoAllowBashIfSandboxed: s.sandbox.autoAllowBashIfSandboxed,
      excludedCommands: s.sandbox.excludedCommands,
    };
    // Re-read like the rules, so turning memory off in settings applies from the next call.
    const memoryDir = resolveMemoryDir({ locations: o.locations, userHome: o.home }).dir;
    return {
      rules: s.rules,
      mode: o.mode(),
      sandbox,
      home: o.home,
      memoryDir,
      carapaceHome: o.locations.home,
    };
  });
  const revise = o.revise;
  if (revise) {
    const decide = engine.decide.bind(engine);
    engine.decide = async (tool, input, ctx) => {
      const d = revise(await decide(tool, input, ctx), tool, input, ctx);
      // A hook's "ask" in dontAsk mode is refused like any other ask there.
      return d.behavior === 'ask' && o.mode() === 'dontAsk'
        ? { ...d, behavior: 'deny', reason: `${d.reason} (dontAsk mode refuses what would need approval)` }
        : d;
    };
  }
  return new EngineGate({
    engine,
    sessionId: o.sessionId,
    handler: o.handler,
    ...(o.onDecision ? { onDecision: o.onDecision } : {}),
    onAlwaysAllow: (rule) => {
      addLocalRule(o.locations.projectRoot, 'allow', rule);
      // The person chose this rule, so it applies in an untrusted folder too; the rest of the file does not.
      o.locations.trust?.accept(o.locations.projectRoot, [trustKey.allow(rule)]);
    },
    onSessionRules: (rules) => {
      for (const r of rules) {
        try {
          hookRules.push(parseRule(r.rule, 'session', r.behavior, o.locations.projectRoot));
        } catch {
          // permission-request.ts passes only rules that parse; nothing to add otherwise.
        }
      }
    },
  });
}
