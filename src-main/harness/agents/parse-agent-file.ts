import { parse } from 'yaml';
import { PermissionMode } from '@shared/domain/permissions';
import type { AgentDefinition } from './definition';

/** Claude Code's rule for agent names: lowercase letters, digits and hyphens, not starting with `-`. */
const NAME = /^[a-z0-9][a-z0-9-]*$/;
const MAX_NAME = 100;
/** A model alias or id: one word of the characters model ids use (Bedrock and Vertex ids included). */
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:@/[\]-]*$/;
/** An alias may refer to the earlier ones (YAML anchors); a bomb of them must not hang the loader. */
const MAX_ALIASES = 50;

export type ParsedAgentFile = { ok: true; agent: AgentDefinition } | { ok: false; message: string };

/** `---` alone on its line (trailing spaces tolerated, as editors leave them). */
const FENCE = /^---[ \t]*$/;

function splitFrontmatter(text: string): { yaml: string; body: string } | string {
  const lines = text.split('\n');
  if (!FENCE.test(lines[0] ?? ''))
    return 'it does not start with frontmatter: a --- line, then name and description, then another --- line';
  const end = lines.findIndex((l, i) => i > 0 && FENCE.test(l));
  if (end === -1) return 'its frontmatter is not closed by a --- line';
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

/**
 * A tool list as Claude Code accepts it: `Read, Grep, Bash` or a YAML list. Commas inside
 * parentheses stay with their entry (`Agent(a, b)`), so an entry is never cut in two.
 */
function toolList(value: unknown, key: string, errors: string[]): string[] | null {
  if (value === undefined || value === null) return null;
  let items: unknown[];
  if (typeof value === 'string') {
    items = [];
    let depth = 0;
    let current = '';
    for (const ch of value) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (ch === ',' && depth === 0) {
        items.push(current);
        current = '';
      } else current += ch;
    }
    items.push(current);
  } else if (Array.isArray(value)) items = value;
  else {
    errors.push(`${key} must be a comma-separated list of tool names or a YAML list`);
    return null;
  }
  const names: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      errors.push(`${key} may contain only tool names (found ${JSON.stringify(item)})`);
      return null;
    }
    const name = item.trim();
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Reads one agent file's text (Claude Code's format: YAML frontmatter, then the system prompt). Every
 * fault is collected into one message, so a person fixes the file in one go; a file with any fault
 * is not loaded at all (half an agent could run with permissions nobody asked for). Keys this
 * version does not use (`skills`, `hooks`, `color`, …) are ignored, as Claude Code has many.
 */
export function parseAgentFile(
  text: string,
  o: { file: string; source: AgentDefinition['source'] },
): ParsedAgentFile {
  const parts = splitFrontmatter(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  if (typeof parts === 'string') return { ok: false, message: `Not loaded: ${parts}.` };
  let data: unknown;
  try {
    data = parse(parts.yaml, {
      maxAliasCount: MAX_ALIASES,
      uniqueKeys: true,
      prettyErrors: false,
      // Warnings (an unknown tag) are not worth a console line: the value is still read as text.
      logLevel: 'error',
    });
  } catch (error) {
    // A YAMLParseError, or the ReferenceError of an alias bomb: either way the message says what.
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `Not loaded: its frontmatter is not valid YAML (${why.split('\n')[0] ?? why}).`,
    };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, message: 'Not loaded: its frontmatter must be YAML keys (name, description, …).' };
  const fm = data as Record<string, unknown>;
  const errors: string[] = [];

  const name = own(fm, 'name');
  if (name === undefined || name === null) errors.push('name is missing');
  else if (typeof name !== 'string') errors.push('name must be text');
  else if (!NAME.test(name) || name.length > MAX_NAME)
    errors.push(
      `name "${name.slice(0, MAX_NAME)}" must be lowercase letters, digits and hyphens, not start with a hyphen, and be at most ${MAX_NAME} characters`,
    );

  const description = own(fm, 'description');
  if (description === undefined || description === null) errors.push('description is missing');
  else if (typeof description !== 'string') errors.push('description must be text');
  else if (description.trim() === '') errors.push('description is empty');

  const tools = toolList(own(fm, 'tools'), 'tools', errors);
  const disallowedTools = toolList(own(fm, 'disallowedTools'), 'disallowedTools', errors) ?? [];

  let model = 'inherit';
  const rawModel = own(fm, 'model');
  if (rawModel !== undefined && rawModel !== null) {
    if (typeof rawModel !== 'string' || !MODEL.test(rawModel.trim()) || rawModel.length > 200)
      errors.push('model must be sonnet, opus, haiku, inherit or a model id');
    else model = rawModel.trim();
  }

  let permissionMode: PermissionMode | null = null;
  const rawMode = own(fm, 'permissionMode');
  if (rawMode !== undefined && rawMode !== null) {
    const mode = PermissionMode.safeParse(rawMode);
    if (mode.success) permissionMode = mode.data;
    else errors.push(`permissionMode must be one of ${PermissionMode.options.join(', ')}`);
  }

  let maxTurns: number | null = null;
  const rawTurns = own(fm, 'maxTurns');
  if (rawTurns !== undefined && rawTurns !== null) {
    if (typeof rawTurns === 'number' && Number.isSafeInteger(rawTurns) && rawTurns > 0) maxTurns = rawTurns;
    else errors.push('maxTurns must be a whole number above 0');
  }

  const systemPrompt = parts.body.trim();
  if (systemPrompt === '')
    errors.push('the body (the agent’s system prompt, below the frontmatter) is empty');

  if (errors.length > 0 || typeof name !== 'string' || typeof description !== 'string')
    return { ok: false, message: `Not loaded: ${errors.join('; ')}.` };
  return {
    ok: true,
    agent: {
      name,
      description: description.trim(),
      tools,
      disallowedTools,
      model,
      permissionMode,
      maxTurns,
      systemPrompt,
      source: o.source,
      file: o.file,
      readOnly: false,
      runsChecks: false,
      // Only a file that lists the Agent tool itself may start agents. `Agent(x, y)` (Claude Code's
      // limit on which types) is not understood yet, so it grants nothing rather than every type.
      canSpawn: (tools?.includes('Agent') ?? false) && !disallowedTools.includes('Agent'),
      verdict: false,
    },
  };
}
