import type { AnyTool, ToolUseContext } from '../tools/tool';

export type GateDecision =
  | {
      behavior: 'allow';
      /** Where the call's paths really led when it was allowed; the tool must not go elsewhere. */
      checkedPaths?: string[];
      /** The input the call runs with instead of the model's (a PreToolUse hook's `updatedInput`). */
      updatedInput?: Record<string, unknown>;
    }
  | { behavior: 'deny'; message: string };

/** Decides whether one tool call may run; what the executor calls before every tool. */
export interface PermissionGate {
  check(tool: AnyTool, input: unknown, ctx: ToolUseContext): Promise<GateDecision>;
  /** Tools denied outright are never shown to the model. */
  filterTools(tools: readonly AnyTool[]): AnyTool[];
}
