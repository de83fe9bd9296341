import { own, parseYamlFrontmatter } from '../frontmatter/parse-yaml-frontmatter';
import { ruleList } from '../frontmatter/rule-list';
import { splitFrontmatter } from '../frontmatter/split-frontmatter';
import type { CommandScope, CustomCommand } from './types';

/** A command name part: what a person can type after `/` without quoting (no spaces, no `:`). */
export const NAME_PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
/** A model alias or id: one word of the characters model ids use. */
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:@/[\]-]{0,199}$/;
const MAX_DESCRIPTION = 300;
/** More rules than any command needs; a longer list is a mistake (or an attempt to flood the list). */
const MAX_ALLOWED_TOOLS = 100;
const MAX_RULE_LENGTH = 500;

export type ParsedCommandFile = { ok: true; command: CustomCommand } | { ok: false; message: string };

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
  // Frontmatter is optional: a file without a `---` first line is all body.
  const parts = splitFrontmatter(text);
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
    const keys = parseYamlFrontmatter(yaml, { example: 'description, model', allowEmpty: false });
    if (!keys.ok) return { ok: false, message: `Not loaded: ${keys.reason}.` };
    fm = keys.keys;
  }
  const errors: string[] = [];
  const description = optionalText(fm, 'description', errors);
  const argumentHint = raw.hint ?? optionalText(fm, 'argument-hint', errors);
  // `Bash(git add:*), Read` or a YAML list; commas inside parentheses stay with their entry.
  const allowedTools =
    ruleList(
      own(fm, 'allowed-tools'),
      {
        notAList: 'allowed-tools must be a comma-separated list of tools or a YAML list',
        notText: (found) => `allowed-tools may contain only tool rules (found ${found})`,
        maxEntryLength: {
          limit: MAX_RULE_LENGTH,
          message: `allowed-tools has an entry longer than ${MAX_RULE_LENGTH} characters`,
        },
        maxEntries: {
          limit: MAX_ALLOWED_TOOLS,
          message: `allowed-tools lists more than ${MAX_ALLOWED_TOOLS} entries`,
        },
      },
      errors,
    ) ?? [];
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
