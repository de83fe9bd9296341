import path from 'node:path';
import type { DecidedBy, PermissionMode } from '@shared/domain/permissions';
import { analyzeCommand, type CommandAnalysis } from '../bash/analyze';
import { runsOutsideSandbox } from '../bash/excluded';
import { commandReadOnlyReason } from '../bash/readonly';
import { realpathNearest } from '../../platform/real-path';
import { isInside } from '../tools/paths';
import type { AnyTool, ToolUseContext } from '../tools/tool';
import { judgeBashReads } from './bash-reads';
import { memoryWriteReason } from './memory-dir-rule';
import { editRuleFor, pathRuleMatches, readRuleFor } from './path-rules';
import { carapaceHomeReason, protectedPathReason } from './protected-paths';
import {
  bashPatternMatches,
  domainMatches,
  toolMatches,
  type PermissionRule,
  type RuleBehavior,
} from './rule';
import { suggestBashRules } from './suggest';

export type { DecidedBy };

export interface PermissionDecision {
  behavior: 'allow' | 'deny' | 'ask';
  /** For a person: why. */
  reason: string;
  decidedBy: DecidedBy;
  rule?: { text: string; source: PermissionRule['source']; behavior: RuleBehavior };
  /** For an ask: the rules "Always allow" would write. */
  suggestions: string[];
  /** The command's analysis, for Bash. */
  analysis?: CommandAnalysis;
  /**
   * Where the call's paths really led when this was decided (symlinks resolved). The tool refuses to
   * go anywhere else at use time, so a link swapped while a person was deciding changes nothing.
   */
  checkedPaths?: string[];
}

export interface SandboxPolicy {
  /** Commands run inside the OS sandbox. */
  active: boolean;
  autoAllowBashIfSandboxed: boolean;
  excludedCommands: readonly string[];
}

export interface EngineContext {
  rules: readonly PermissionRule[];
  mode: PermissionMode;
  sandbox: SandboxPolicy;
  home: string;
  /** The project's auto-memory directory (null: memory off); writes of memory files there need no approval. */
  memoryDir?: string | null;
  /** Carapace's data folder (`$CARAPACE_HOME`): writes there ask like protected paths. */
  carapaceHome?: string | null;
}

const READ_TOOLS = new Set(['Read', 'Glob', 'Grep']);
const EDIT_TOOLS = new Set(['Edit', 'Write']);

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** The text of a simple command for rule matching: its words after wrappers and assignments. */
function commandText(core: readonly (string | null)[]): string {
  return core.map((w) => (w === null ? '$?' : w)).join(' ');
}

function ruleRef(r: PermissionRule): NonNullable<PermissionDecision['rule']> {
  return { text: r.text, source: r.source, behavior: r.behavior };
}

/**
 * The permission engine: deny rules first, then ask, then the mode, then allow rules and what is
 * safe by analysis, then the sandbox; whatever is left is asked (or denied where nobody can be asked).
 * A deny at any source wins over an allow at any other. Compound Bash commands: every part must be
 * allowed; a deny or ask matching any part applies to the whole.
 */
export class PermissionEngine {
  constructor(private readonly ctx: () => EngineContext) {}

  /** Tools denied outright (a bare deny) are never offered to the model. */
  filterTools(tools: readonly AnyTool[]): AnyTool[] {
    const { rules } = this.ctx();
    return tools.filter(
      (t) => !rules.some((r) => r.behavior === 'deny' && r.specifier === null && toolMatches(r.tool, t.name)),
    );
  }

  async decide(
    tool: AnyTool,
    input: Record<string, unknown>,
    tc: ToolUseContext,
  ): Promise<PermissionDecision> {
    const ctx = this.ctx();
    const decision =
      tool.name === 'Bash'
        ? await this.decideBash(str(input['command']) ?? '', tc, ctx)
        : this.decideOther(tool, input, tc, ctx);
    if (decision.behavior === 'ask' && ctx.mode === 'dontAsk') {
      return {
        ...decision,
        behavior: 'deny',
        decidedBy: 'mode',
        reason: `${decision.reason} (dontAsk mode refuses what would need approval)`,
      };
    }
    return decision;
  }

  private matching(
    ctx: EngineContext,
    behavior: RuleBehavior,
    tool: string,
    matches: (r: PermissionRule) => boolean,
  ): PermissionRule | undefined {
    return ctx.rules.find(
      (r) => r.behavior === behavior && toolMatches(r.tool, tool) && (r.specifier === null || matches(r)),
    );
  }

  private async decideBash(
    command: string,
    tc: ToolUseContext,
    ctx: EngineContext,
  ): Promise<PermissionDecision> {
    const analysis = await analyzeCommand(command);
    const parts = analysis.commands.map((c) => commandText(c.core));
    const anyPart = (r: PermissionRule) =>
      r.specifier !== null &&
      (parts.some((p) => bashPatternMatches(r.specifier ?? '', p)) ||
        bashPatternMatches(r.specifier, command));
    const base = { suggestions: [] as string[], analysis };

    const deny = this.matching(ctx, 'deny', 'Bash', anyPart);
    if (deny)
      return {
        ...base,
        behavior: 'deny',
        decidedBy: 'rule',
        rule: ruleRef(deny),
        reason: `denied by the rule ${deny.text} (${deny.source} settings)`,
      };
    // Outside the sandbox a command reads whatever it names: the Read tool's path rules apply to the
    // files read-only commands read (bash-reads.ts). One judgement of where it runs, shared with the shell.
    const unsandboxed = !ctx.sandbox.active || runsOutsideSandbox(analysis, ctx.sandbox.excludedCommands);
    const reads = judgeBashReads(analysis, {
      cwd: tc.cwd,
      projectRoot: tc.projectRoot,
      home: ctx.home,
      rules: ctx.rules,
      unsandboxed,
    });
    if (reads.deny)
      return {
        ...base,
        behavior: 'deny',
        decidedBy: 'rule',
        rule: ruleRef(reads.deny.rule),
        reason: reads.deny.reason,
      };
    const ask = this.matching(ctx, 'ask', 'Bash', anyPart);
    if (ask)
      return {
        ...base,
        behavior: 'ask',
        decidedBy: 'rule',
        rule: ruleRef(ask),
        reason: `the rule ${ask.text} (${ask.source} settings) asks first`,
        suggestions: [],
      };
    if (reads.ask)
      return {
        ...base,
        behavior: 'ask',
        decidedBy: 'rule',
        rule: ruleRef(reads.ask.rule),
        reason: reads.ask.reason,
      };
    if (ctx.mode === 'bypassPermissions')
      return { ...base, behavior: 'allow', decidedBy: 'mode', reason: 'bypassPermissions mode' };
    // A read-only command that reads outside the project, unsandboxed, asks as Read would.
    const readsOutside: PermissionDecision | null =
      reads.outside.size > 0
        ? {
            ...base,
            behavior: 'ask',
            decidedBy: 'default',
            reason: [...reads.outside.values()].join('; '),
            suggestions: reads.suggestions,
          }
        : null;
    const readOnlyAllow = (reason: string): PermissionDecision => {
      const rule = reads.allowedBy[0];
      return rule
        ? {
            ...base,
            behavior: 'allow',
            decidedBy: 'rule',
            rule: ruleRef(rule),
            reason: `read-only command; what it reads outside the project is allowed by the rule ${rule.text} (${rule.source} settings)`,
          }
        : { ...base, behavior: 'allow', decidedBy: 'analysis', reason };
    };
    if (ctx.mode === 'plan') {
      return analysis.readOnly
        ? (readsOutside ?? readOnlyAllow('read-only command (plan mode)'))
        : {
            ...base,
            behavior: 'deny',
            decidedBy: 'mode',
            reason: `plan mode allows read-only commands only: ${analysis.reasons[0] ?? 'this one changes something'}`,
          };
    }
    if (analysis.readOnly) return readsOutside ?? readOnlyAllow('read-only command');

    // Allow rules approve part by part, and only a command the analysis fully understands.
    if (analysis.findings.length === 0 && analysis.parsed && analysis.commands.length > 0) {
      let lastRule: PermissionRule | undefined;
      const allAllowed = analysis.commands.every((c, i) => {
        const readOnly = commandReadOnlyReason(c) === null;
        // A read-only part needs no rule unless it reads outside the project unsandboxed; then only a
        // rule naming it does. A program's rule (`Bash(node *)`) is no approval for what it reads
        // outside through a redirect (`node x.js < ~/.ssh/id_rsa`): that needs a person.
        if (reads.outside.has(i)) {
          if (!readOnly) return false;
        } else if (readOnly) return true;
        const text = commandText(c.core);
        if (c.core.some((w) => w === null)) return false;
        const rule = ctx.rules.find(
          (r) =>
            r.behavior === 'allow' &&
            toolMatches(r.tool, 'Bash') &&
            (r.specifier === null || bashPatternMatches(r.specifier, text)),
        );
        if (rule) lastRule = rule;
        return rule !== undefined;
      });
      if (allAllowed && lastRule)
        return {
          ...base,
          behavior: 'allow',
          decidedBy: 'rule',
          rule: ruleRef(lastRule),
          reason: `allowed by the rule ${lastRule.text} (${lastRule.source} settings)`,
        };
    }
    // Only what really runs inside the sandbox: a line of excluded commands runs outside it.
    if (ctx.sandbox.autoAllowBashIfSandboxed && !unsandboxed) {
      return {
        ...base,
        behavior: 'allow',
        decidedBy: 'sandbox',
        reason: 'runs inside the sandbox (autoAllowBashIfSandboxed)',
      };
    }
    return {
      ...base,
      behavior: 'ask',
      decidedBy: 'default',
      reason: [...analysis.reasons, ...reads.outside.values()].join('; ') || 'this command needs approval',
      suggestions: suggestBashRules(analysis),
    };
  }

  private decideOther(
    tool: AnyTool,
    input: Record<string, unknown>,
    tc: ToolUseContext,
    ctx: EngineContext,
  ): PermissionDecision {
    const rawPath = str(input['file_path']) ?? str(input['path']);
    const target =
      rawPath !== null ? path.resolve(tc.cwd, rawPath) : READ_TOOLS.has(tool.name) ? tc.cwd : null;
    // Every decision is made on where the path really leads as well as how it is written: a link in
    // the project (`keys -> ~/.ssh`) is outside it. The tool checks again at use time (checkedPaths).
    const realRoot = realpathNearest(tc.projectRoot);
    const realHome = realpathNearest(ctx.home);
    const real = target !== null ? realpathNearest(target) : null;
    const writes = tool.writesTo(input, tc);
    const realWrites = writes.map(realpathNearest);
    const none = {
      suggestions: [] as string[],
      checkedPaths: [...new Set([...(real !== null ? [real] : []), ...realWrites])],
    };
    const url = str(input['url']);
    const matchesPath = (r: PermissionRule): boolean => {
      if (target === null || real === null) return false;
      const asWritten = pathRuleMatches(r, target, tc.projectRoot, ctx.home);
      const asResolved = pathRuleMatches(r, real, realRoot, realHome);
      // A deny or ask fires if either spelling matches; an allow needs both (link and target).
      return r.behavior === 'allow' ? asWritten && asResolved : asWritten || asResolved;
    };
    const specMatches = (r: PermissionRule): boolean => {
      if (r.specifier === null) return true;
      // `Agent(Explore)`, `Agent(my-agent)`: the specifier names an agent type, matched exactly.
      if (tool.name === 'Agent') return r.specifier === str(input['subagent_type']);
      if (url !== null && r.specifier.startsWith('domain:')) return domainMatches(r.specifier, url);
      return matchesPath(r);
    };
    const inside = (lexical: string, resolved: string) =>
      isInside(tc.projectRoot, lexical) && isInside(realRoot, resolved);
    // Read denies also block edits of the same path.
    const denyTools = EDIT_TOOLS.has(tool.name)
      ? [tool.name, 'Read']
      : READ_TOOLS.has(tool.name)
        ? [tool.name, 'Read']
        : [tool.name];
    for (const name of denyTools) {
      const ruleTool = EDIT_TOOLS.has(name) ? 'Edit' : name;
      const deny = ctx.rules.find(
        (r) =>
          r.behavior === 'deny' &&
          (toolMatches(r.tool, tool.name) || toolMatches(r.tool, ruleTool)) &&
          specMatches(r),
      );
      if (deny)
        return {
          ...none,
          behavior: 'deny',
          decidedBy: 'rule',
          rule: ruleRef(deny),
          reason: `denied by the rule ${deny.text} (${deny.source} settings)`,
        };
    }
    const family = EDIT_TOOLS.has(tool.name) ? 'Edit' : READ_TOOLS.has(tool.name) ? 'Read' : tool.name;
    const ruleFor = (b: RuleBehavior) =>
      ctx.rules.find(
        (r) =>
          r.behavior === b &&
          (toolMatches(r.tool, tool.name) || toolMatches(r.tool, family)) &&
          specMatches(r),
      );
    const ask = ruleFor('ask');
    if (ask)
      return {
        ...none,
        behavior: 'ask',
        decidedBy: 'rule',
        rule: ruleRef(ask),
        reason: `the rule ${ask.text} (${ask.source} settings) asks first`,
      };

    // After deny and ask rules (a person's rule still wins), before the outside-the-project check.
    const memory =
      ctx.mode === 'plan' ? null : memoryWriteReason(tool.name, writes, ctx.memoryDir, none.checkedPaths);
    if (memory) return { ...none, behavior: 'allow', decidedBy: 'default', reason: memory };

    const outside = writes.flatMap((p, i) => {
      const r = realWrites[i] ?? p;
      return inside(p, r) ? [] : [r === p ? p : `${p}, which leads to ${r}`];
    });
    if (outside.length > 0 && ctx.mode !== 'bypassPermissions') {
      return {
        ...none,
        behavior: 'ask',
        decidedBy: 'default',
        reason: `${tool.name} would write outside the project (${outside.join('; ')})`,
      };
    }
    if (ctx.mode === 'bypassPermissions')
      return { ...none, behavior: 'allow', decidedBy: 'mode', reason: 'bypassPermissions mode' };
    const readOnly = tool.isReadOnly(input) && writes.length === 0;
    if (ctx.mode === 'plan' && !readOnly)
      return {
        ...none,
        behavior: 'deny',
        decidedBy: 'mode',
        reason: `plan mode allows read-only tools only; ${tool.name} would change something`,
      };
    // Protected paths ask in every mode but bypass; neither allow rules nor acceptEdits approve them,
    // and "Always allow" offers no rule for them.
    const guarded = writes.flatMap(
      (p) => protectedPathReason(p, tc.projectRoot) ?? carapaceHomeReason(p, ctx.carapaceHome) ?? [],
    );
    if (guarded.length > 0)
      return {
        ...none,
        behavior: 'ask',
        decidedBy: 'default',
        reason: `${tool.name} would change a protected path: ${guarded.join('; ')}`,
      };
    const allow = ruleFor('allow');
    if (allow)
      return {
        ...none,
        behavior: 'allow',
        decidedBy: 'rule',
        rule: ruleRef(allow),
        reason: `allowed by the rule ${allow.text} (${allow.source} settings)`,
      };
    // Read-only, but they leave the machine: a domain no rule allows is asked about (as Claude Code),
    // and a search (billed per request) too.
    const webHost = tool.name === 'WebFetch' && url !== null ? hostOf(url) : null;
    if (tool.name === 'WebFetch')
      return {
        ...none,
        behavior: 'ask',
        decidedBy: 'default',
        reason: `WebFetch would fetch from ${webHost ?? 'an address that cannot be read'}`,
        suggestions: webHost ? [`WebFetch(domain:${webHost})`] : [],
      };
    if (tool.name === 'WebSearch')
      return {
        ...none,
        behavior: 'ask',
        decidedBy: 'default',
        reason: 'WebSearch searches the web',
        suggestions: ['WebSearch'],
      };
    if (readOnly) {
      if (target === null || real === null || inside(target, real))
        return {
          ...none,
          behavior: 'allow',
          decidedBy: 'default',
          reason: 'read-only tool inside the project',
        };
      const where = real === target ? target : `${target}, which leads to ${real}`;
      return {
        ...none,
        behavior: 'ask',
        decidedBy: 'default',
        reason: `${tool.name} would read outside the project (${where})`,
        // An allow rule must cover both the link and its target.
        suggestions: real === target ? [readRuleFor(target)] : [],
      };
    }
    if (writes.length > 0 && ctx.mode === 'acceptEdits')
      return {
        ...none,
        behavior: 'allow',
        decidedBy: 'mode',
        reason: 'acceptEdits mode: file edits inside the project',
      };
    const suggestion = writes[0] ? editRuleFor(tc.projectRoot, path.dirname(writes[0])) : tool.name;
    return {
      ...none,
      behavior: 'ask',
      decidedBy: 'default',
      reason:
        writes.length > 0
          ? `${tool.name} changes ${writes.map((w) => path.relative(tc.projectRoot, w)).join(', ')}`
          : `${tool.name} needs approval`,
      suggestions: [suggestion],
    };
  }
}

/** The host a URL names, lower-case, for a `WebFetch(domain:…)` suggestion; null when it cannot be read. */
function hostOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    return host === '' ? null : host;
  } catch {
    return null;
  }
}
