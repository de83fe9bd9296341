import path from 'node:path';
import { PATH_RULE_TOOLS, pathRuleMatches } from '../permissions/path-rules';
import {
  bashPatternMatches,
  domainMatches,
  parseRule,
  toolMatches,
  type PermissionRule,
} from '../permissions/rule';
import type { ConfiguredHook } from './sources';
import { TOOL_EVENTS, type HookEvent } from './schema';

/** What an event's hooks are selected by: the tool call for tool events, else the matcher's value. */
export interface HookTarget {
  toolName?: string;
  toolInput?: Record<string, unknown>;
  /** For events matched on something other than a tool name (SessionStart's source, …). */
  matchValue?: string;
}

/** A matcher made only of these is an exact name or a list of names (split on `|` or `,`). */
const EXACT = /^[A-Za-z0-9_\- ,|]+$/;

/**
 * Claude Code's matcher: absent, `""` or `*` matches everything; a name or a `|` list matches those
 * names exactly; anything else is an unanchored RegExp. A RegExp that does not compile matches nothing.
 */
export function compileMatcher(matcher: string): {
  test: (value: string) => boolean;
  problem: string | null;
} {
  const m = matcher.trim();
  if (m === '' || m === '*') return { test: () => true, problem: null };
  if (EXACT.test(m)) {
    const names = new Set(
      m
        .split(/[|,]/)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    );
    return { test: (v) => names.has(v), problem: null };
  }
  try {
    const re = new RegExp(m);
    return { test: (v) => re.test(v), problem: null };
  } catch (error) {
    return {
      test: () => false,
      problem: `hook matcher "${matcher}" is not a valid regular expression (${(error as Error).message}); its hooks never run`,
    };
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** Whether a permission rule (the `if` field) covers a tool call, by the permission rules' own matching. */
export function ruleCoversCall(
  rule: PermissionRule,
  toolName: string,
  input: Record<string, unknown>,
  where: { projectRoot: string; home: string; cwd: string },
): boolean {
  if (!toolMatches(rule.tool, toolName)) return false;
  const spec = rule.specifier;
  if (spec === null) return true;
  if (toolName === 'Bash') {
    const command = str(input['command']) ?? '';
    // The whole command, or any of its simple parts (`cd x && git push` is a `git *` call).
    const parts = command.split(/&&|\|\||[;|\n]/).map((p) => p.trim());
    return [command, ...parts].some((p) => p !== '' && bashPatternMatches(spec, p));
  }
  if (PATH_RULE_TOOLS.has(toolName)) {
    const file = str(input['file_path']) ?? str(input['notebook_path']) ?? str(input['path']);
    if (file === null) return false;
    return pathRuleMatches(rule, path.resolve(where.cwd, file), where.projectRoot, where.home);
  }
  if (toolName === 'WebFetch') return domainMatches(spec, str(input['url']) ?? '');
  return Object.values(input).some((v) => v === spec);
}

/**
 * Picks the hooks of an event that apply to one target: the matcher (tool events: the tool's name),
 * then the `if` rule (tool events only), and an identical handler configured in several places once.
 * A matcher or `if` that cannot be used is reported once per selector, not at every call.
 */
export class HookSelector {
  private readonly reported = new Set<string>();

  constructor(
    private readonly where: { projectRoot: string; home: string; cwd: string },
    private readonly report: (problem: string) => void = () => undefined,
  ) {}

  private once(problem: string): void {
    if (this.reported.has(problem)) return;
    this.reported.add(problem);
    this.report(problem);
  }

  select(hooks: readonly ConfiguredHook[], event: HookEvent, target: HookTarget): ConfiguredHook[] {
    const toolEvent = TOOL_EVENTS.has(event);
    // UserPromptSubmit and Stop take no matcher: the field is ignored, as in Claude Code.
    const value = toolEvent ? target.toolName : target.matchValue;
    const seen = new Set<string>();
    return hooks.filter((h) => {
      if (h.event !== event) return false;
      if (value !== undefined) {
        const m = compileMatcher(h.matcher);
        if (m.problem) this.once(m.problem);
        if (!m.test(value)) return false;
      }
      const condition = h.handler.if;
      if (condition !== undefined && toolEvent && target.toolName !== undefined) {
        let rule: PermissionRule;
        try {
          rule = parseRule(condition, 'session', 'allow', this.where.projectRoot);
        } catch (error) {
          this.once(`hook "if" ${(error as Error).message}; the hook never runs`);
          return false;
        }
        if (!ruleCoversCall(rule, target.toolName, target.toolInput ?? {}, this.where)) return false;
      }
      const key = JSON.stringify(h.handler);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
}
