import type { PermissionMode } from '@shared/domain/permissions';
import { isInside } from '../tools/paths';
import type { AnyTool, ToolUseContext } from '../tools/tool';

export type GateDecision = { behavior: 'allow' } | { behavior: 'deny'; message: string };

/** Decides whether one tool call may run. The interface the full permission engine keeps. */
export interface PermissionGate {
  check(tool: AnyTool, input: unknown, ctx: ToolUseContext): Promise<GateDecision>;
  /** Tools denied outright are never shown to the model. */
  filterTools(tools: readonly AnyTool[]): AnyTool[];
}

export interface MinimalGateOptions {
  mode: PermissionMode;
  /** Tool names always allowed (`--allowedTools Read,Grep`). Rules with arguments are not understood yet. */
  allowedTools?: readonly string[];
  /** Tool names always denied (`--disallowedTools Bash`). */
  disallowedTools?: readonly string[];
}

const bareName = (rule: string) => (/^[A-Za-z_][\w-]*$/.test(rule) ? rule : null);

/**
 * A minimal, fail-closed gate: read-only tools run; Write and Edit run in acceptEdits and
 * bypassPermissions, inside the project only; Bash runs in bypassPermissions; everything else is
 * refused with a message saying how to allow it. Nothing here asks a person.
 */
export class MinimalPermissionGate implements PermissionGate {
  private readonly allowed: Set<string>;
  private readonly denied: Set<string>;

  constructor(private readonly options: MinimalGateOptions) {
    this.allowed = new Set((options.allowedTools ?? []).flatMap((r) => bareName(r) ?? []));
    this.denied = new Set((options.disallowedTools ?? []).flatMap((r) => bareName(r) ?? []));
  }

  filterTools(tools: readonly AnyTool[]): AnyTool[] {
    return tools.filter((t) => !this.denied.has(t.name));
  }

  async check(tool: AnyTool, input: unknown, ctx: ToolUseContext): Promise<GateDecision> {
    const mode = this.options.mode;
    if (this.denied.has(tool.name))
      return { behavior: 'deny', message: `${tool.name} is disallowed by --disallowedTools.` };
    const own = await tool.checkPermissions(input, ctx);
    if (own.behavior === 'deny') return { behavior: 'deny', message: own.message };

    const writes = tool.writesTo(input, ctx);
    const outside = writes.filter((p) => !isInside(ctx.projectRoot, p));
    if (outside.length > 0) {
      return {
        behavior: 'deny',
        message: `${tool.name} may not write outside the project (${outside.join(', ')}); the project is ${ctx.projectRoot}.`,
      };
    }
    if (tool.isReadOnly(input) && writes.length === 0) return { behavior: 'allow' };
    if (mode === 'plan')
      return {
        behavior: 'deny',
        message: `Plan mode allows read-only tools only; ${tool.name} would change something. Present the plan instead.`,
      };
    if (mode === 'bypassPermissions') return { behavior: 'allow' };
    if (writes.length > 0 && mode === 'acceptEdits') return { behavior: 'allow' };
    if (this.allowed.has(tool.name)) return { behavior: 'allow' };
    const how =
      writes.length > 0
        ? 'Run in acceptEdits mode (--permission-mode acceptEdits) to allow file edits in the project'
        : `Allow it with --allowedTools ${tool.name} or --permission-mode bypassPermissions`;
    return {
      behavior: 'deny',
      message: `Permission to use ${tool.name} was denied: it needs approval and nobody can be asked here. ${how}.`,
    };
  }
}
