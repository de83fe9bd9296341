import { parse } from 'yaml';
import type { CommandScope, CustomCommand } from './types';

/** A command name part: what a person can type after `/` without quoting (no spaces, no `:`). */
export const NAME_PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
/** A model alias or id: one word of the characters model ids use. */
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:@/[\]-]{0,199}$/;
/** YAML anchors may refer to earlier ones; a bomb of them must not hang the loader. */
const MAX_ALIASES = 50;
const MAX_DESCRIPTION = 300;
/** More rules than any command needs; a longer list is a mistake (or an attempt to flood the list). */
const MAX_ALLOWED_TOOLS = 100;
const MAX_RULE_LENGTH = 500;
const FENCE = /^---[ \t]*$/;

export type ParsedCommandFile = { ok: true; command: CustomCommand } | { ok: false; message: string };

/** Frontmatter and body; a file without a `---` first line is all body (frontmatter is optional). */
function split(text: string): { yaml: string | null; body: string } | string {
  const lines = text.split('\n');
  if (!FENCE.test(lines[0] ?? '')) return { yaml: null, body: text };
  const end = lines.findIndex((l, i) => i > 0 && FENCE.test(l));
  if (end === -1) return 'its frontmatter is not closed by a --- line';
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

/** `Bash(git add:*), Read` or a YAML list; commas inside parentheses stay with their entry. */
function toolList(value: unknown, errors: string[]): string[] {
  if (value === undefined || value === null) return [];
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
    errors.push('allowed-tools must be a comma-separated list of tools or a YAML list');
    return [];
  }
  const names: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      errors.push(`allowed-tools may contain only tool rules (found ${JSON.stringify(item)})`);
      return [];
    }
    const name = item.trim();
    if (name.length > MAX_RULE_LENGTH) {
      errors.push(`allowed-tools has an entry longer than ${MAX_RULE_LENGTH} characters`);
      return [];
    }
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  if (names.length > MAX_ALLOWED_TOOLS) {
    errors.push(`allowed-tools lists more than ${MAX_ALLOWED_TOOLS} entries`);
    return [];
  }
  return names;
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function optionalText(fm: Record<string, unknown>, key: string, errors: string[]): string | null {
  const v = own(fm, key);
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') {
    errors.push(`${key} must be text`);
    return null;
  }
  return v.trim() === '' ? null : v.trim();
}

/** The first line of the body that says something, as a description when the file gives none. */
function firstLine(body: string): string {
  const line = body
    .split('\n')
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l !== '');
  return line ?? '';
}

function shorten(text: string): string {
  // Control characters would draw as nothing (or move the cursor in a terminal): they go.
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return clean.length > MAX_DESCRIPTION ? `${clean.slice(0, MAX_DESCRIPTION - 1)}…` : clean;
}

/**
 * Reads one command file (Claude Code's format: optional YAML frontmatter with `description`,
 * `argument-hint`, `allowed-tools`, `model`; the rest is the prompt). Every fault is collected into
 * one message; a file with any fault is not loaded (half a command could run with tools nobody
 * meant). Keys this version does not use (`disable-model-invocation`, …) are ignored.
 */
export function parseCommandFile(
  text: string,
  o: { name: string; namespace: string | null; scope: CommandScope; file: string },
): ParsedCommandFile {
  const parts = split(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  if (typeof parts === 'string') return { ok: false, message: `Not loaded: ${parts}.` };
  let fm: Record<string, unknown> = {};
  // `argument-hint: [pr-number] [priority]`, as Claude Code's own examples write it, is not YAML (a
  // list followed by more text): the line is taken as written, before the rest is parsed.
  const raw: { hint: string | null } = { hint: null };
  const yaml = parts.yaml?.replace(/^argument-hint:[ \t]*(\[.*)$/m, (_line, value: string) => {
    raw.hint = value.trim();
    return '';
  });
  if (yaml !== undefined && yaml.trim() !== '') {
    let data: unknown;
    try {
      data = parse(yaml, {
        maxAliasCount: MAX_ALIASES,
        uniqueKeys: true,
        prettyErrors: false,
        logLevel: 'error',
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        message: `Not loaded: its frontmatter is not valid YAML (${why.split('\n')[0] ?? why}).`,
      };
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      return { ok: false, message: 'Not loaded: its frontmatter must be YAML keys (description, model, …).' };
    fm = data as Record<string, unknown>;
  }
  const errors: string[] = [];
  const description = optionalText(fm, 'description', errors);
  const argumentHint = raw.hint ?? optionalText(fm, 'argument-hint', errors);
  const allowedTools = toolList(own(fm, 'allowed-tools'), errors);
  const model = optionalText(fm, 'model', errors);
  if (model !== null && !MODEL.test(model)) errors.push(`model "${model.slice(0, 80)}" is not a model name`);
  if (errors.length > 0) return { ok: false, message: `Not loaded: ${errors.join('; ')}.` };
  const body = parts.body.trim();
  return {
    ok: true,
    command: {
      name: o.namespace ? `${o.namespace}:${o.name}` : o.name,
      scope: o.scope,
      namespace: o.namespace,
      file: o.file,
      description: shorten(description ?? firstLine(body)),
      argumentHint: argumentHint === null ? null : shorten(argumentHint),
      allowedTools,
      // `inherit` (as agent files say it) keeps the session's model.
      model: model === 'inherit' ? null : model,
      body,
    },
  };
}
