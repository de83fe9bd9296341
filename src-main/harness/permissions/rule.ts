import { compileNameGlob } from '../tools/glob-match';
import { PATH_RULE_TOOLS, pathRuleProblem } from './path-rules';

/** Where a rule comes from, highest precedence first. */
export const RULE_SOURCES = ['policy', 'cli', 'local', 'project', 'user', 'session'] as const;
export type RuleSource = (typeof RULE_SOURCES)[number];
export type RuleBehavior = 'allow' | 'deny' | 'ask';

/** A permission rule in Claude Code's syntax: `Tool` or `Tool(specifier)`. */
export interface PermissionRule {
  source: RuleSource;
  behavior: RuleBehavior;
  /** As written, e.g. `Bash(npm run test:*)`. */
  text: string;
  tool: string;
  /** The part in parentheses; null for a bare tool name (or `Tool(*)`). */
  specifier: string | null;
  /** For path rules: the folder relative paths in the pattern start from. */
  base: string;
  /**
   * A deny or ask rule whose path pattern cannot be used, in words: it is kept and covers everything
   * its tool touches (failing closed), and this is reported where the settings are read.
   */
  unusable?: string;
}

export class RuleSyntaxError extends Error {
  constructor(text: string, why: string) {
    super(`Permission rule "${text}" is not valid: ${why}`);
    this.name = 'RuleSyntaxError';
  }
}

/** Splits `Tool(specifier)`; `Tool(*)` and `Tool` are the same rule. */
export function parseRule(
  text: string,
  source: RuleSource,
  behavior: RuleBehavior,
  base: string,
): PermissionRule {
  const trimmed = text.trim();
  const m = /^([A-Za-z_*][\w*-]*)(?:\((.*)\))?$/s.exec(trimmed);
  if (!m?.[1]) throw new RuleSyntaxError(text, 'expected Tool or Tool(specifier)');
  const spec = m[2]?.trim();
  if (spec === '') throw new RuleSyntaxError(text, 'the parentheses are empty');
  const specifier = spec === undefined || spec === '*' ? null : spec;
  if (specifier !== null && PATH_RULE_TOOLS.has(m[1])) {
    const problem = pathRuleProblem(specifier);
    // An allow that cannot be used is dropped; a deny or ask dropped would open what it closed
    // (managed policy included), so it stays, covering everything (see pathRuleMatches).
    if (problem !== null && behavior === 'allow')
      throw new RuleSyntaxError(text, `its path pattern cannot be used: ${problem}`);
    if (problem !== null)
      return {
        source,
        behavior,
        text: trimmed,
        tool: m[1],
        specifier,
        base,
        unusable: `Permission rule "${trimmed}" has a path pattern that cannot be used: ${problem}. Until it is fixed, it ${behavior === 'deny' ? 'denies' : 'asks about'} everything ${m[1]} touches.`,
      };
  }
  return { source, behavior, text: trimmed, tool: m[1], specifier, base };
}

/** Tool-name match: exact, or a glob (`*`, `mcp__*`); `mcp__server` covers every tool of that server. */
export function toolMatches(ruleTool: string, tool: string): boolean {
  if (ruleTool === tool) return true;
  if (ruleTool.startsWith('mcp__') && !ruleTool.slice(5).includes('__') && !ruleTool.includes('*'))
    return tool.startsWith(`${ruleTool}__`);
  if (!ruleTool.includes('*')) return false;
  return compileNameGlob(ruleTool)(tool);
}

/**
 * A Bash specifier as a matcher over one simple command's text. `*` matches anything (spaces too);
 * a trailing ` *` or the legacy `:*` means "this prefix as whole words, then anything or nothing":
 * `Bash(ls *)` matches `ls -la` and `ls`, but not `lsof`.
 */
export function bashPatternMatches(pattern: string, command: string): boolean {
  let p = pattern.trim();
  let prefix = false;
  if (p.endsWith(':*')) {
    p = p.slice(0, -2);
    prefix = true;
  } else if (p.endsWith(' *')) {
    p = p.slice(0, -2);
    prefix = true;
  }
  const body = p
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const re = new RegExp(prefix ? `^${body}(\\s.*)?$` : `^${body}$`, 's');
  return re.test(command.trim().replace(/\s+/g, ' '));
}

/** `WebFetch(domain:example.com)`: case-insensitive; `*.example.com` matches any subdomain, not the apex. */
export function domainMatches(spec: string, url: string): boolean {
  if (!spec.startsWith('domain:')) return false;
  const want = spec.slice('domain:'.length).toLowerCase().replace(/\.$/, '');
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  if (want === '*') return true;
  if (want.startsWith('*.')) return host.endsWith(want.slice(1)) && host !== want.slice(2);
  if (want.includes('*')) {
    const re = new RegExp(
      `^${want
        .split('.')
        .map((l) => (l === '*' ? '[^.]+' : l.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
        .join('\\.')}$`,
    );
    return re.test(host);
  }
  return host === want;
}
