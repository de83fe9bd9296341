import { analyzeCommand } from '../bash/analyze';
import type { GateDecision, PermissionGate } from '../permissions/gate';
import type { AnyTool, ToolUseContext } from '../tools/tool';

/** Tools whose whole job is changing files: a read-only agent is never offered them. */
export const WRITE_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

function refuse(what: string, why: string): GateDecision {
  return {
    behavior: 'deny',
    message: `${what} was refused: you are a read-only agent and may not create, edit, delete, move or copy files (${why}). Report what should change instead.`,
  };
}

/**
 * Narrows a read-only agent's gate (Explore, Plan, Verification) before the normal permissions:
 * file-writing tools are neither offered nor run, and Bash runs only what the command analysis proves
 * read-only. Verification (`runsChecks`) must also run tests and builds, which write build output:
 * its other commands go to the normal permissions instead, where the person or the sandbox decides.
 * Everything allowed here still passes through the inner gate, so deny rules keep applying.
 */
export function readOnlyGate(inner: PermissionGate, o: { runsChecks: boolean }): PermissionGate {
  return {
    filterTools(tools: readonly AnyTool[]): AnyTool[] {
      return inner.filterTools(tools.filter((t) => !WRITE_TOOLS.has(t.name)));
    },
    async check(tool: AnyTool, input: unknown, ctx: ToolUseContext): Promise<GateDecision> {
      if (WRITE_TOOLS.has(tool.name)) return refuse(tool.name, `${tool.name} changes files`);
      const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
      if (tool.name === 'Bash') {
        const command = typeof args['command'] === 'string' ? args['command'] : '';
        const analysis = await analyzeCommand(command);
        if (!analysis.readOnly && !o.runsChecks)
          return refuse('This command', analysis.reasons[0] ?? 'it could not be shown to only read');
      } else {
        // Any other tool that says it writes files (an MCP or future tool) is refused the same way.
        let writes: string[];
        try {
          writes = tool.writesTo(args, ctx);
        } catch {
          writes = [];
        }
        if (writes.length > 0) return refuse(tool.name, `it would write ${writes.join(', ')}`);
      }
      return inner.check(tool, input, ctx);
    },
  };
}
