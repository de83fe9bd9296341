import { PermissionMode } from '@shared/domain/permissions';
import { own, parseYamlFrontmatter } from '../frontmatter/parse-yaml-frontmatter';
import { ruleList } from '../frontmatter/rule-list';
import { splitFrontmatter } from '../frontmatter/split-frontmatter';
import type { AgentDefinition } from './definition';

/** Claude Code's rule for agent names: lowercase letters, digits and hyphens, not starting with `-`. */
const NAME = /^[a-z0-9][a-z0-9-]*$/;
const MAX_NAME = 100;
/** A model alias or id: one word of the characters model ids use (Bedrock and Vertex ids included). */
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:@/[\]-]*$/;

export type ParsedAgentFile = { ok: true; agent: AgentDefinition } | { ok: false; message: string };

/**
 * A tool list as Claude Code accepts it: `Read, Grep, Bash` or a YAML list. Commas inside
 * parentheses stay with their entry (`Agent(a, b)`), so an entry is never cut in two.
 */
function toolList(value: unknown, key: string, errors: string[]): string[] | null {
  return ruleList(
    value,
    {
      notAList: `${key} must be a comma-separated list of tool names or a YAML list`,
      notText: (found) => `${key} may contain only tool names (found ${found})`,
    },
    errors,
  );
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
  const parts = splitFrontmatter(text);
  if (typeof parts === 'string') return { ok: false, message: `Not loaded: ${parts}.` };
  // Unlike a command or a skill, an agent needs its frontmatter (name and description).
  if (parts.yaml === null)
    return {
      ok: false,
      message:
        'Not loaded: it does not start with frontmatter: a --- line, then name and description, then another --- line.',
    };
  const keys = parseYamlFrontmatter(parts.yaml, { example: 'name, description', allowEmpty: false });
  if (!keys.ok) return { ok: false, message: `Not loaded: ${keys.reason}.` };
  const fm = keys.keys;
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
