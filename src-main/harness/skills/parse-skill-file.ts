import { own, parseYamlFrontmatter } from '../frontmatter/parse-yaml-frontmatter';
import { ruleList } from '../frontmatter/rule-list';
import { splitFrontmatter } from '../frontmatter/split-frontmatter';
import { parseRule, RuleSyntaxError } from '../permissions/rule';
import type { SkillDefinition } from './definition';

/** Claude Code's rule for skill names: lowercase letters, digits and hyphens, at most 64 characters. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** A description longer than this is cut in the listing anyway; kept whole it would only cost tokens. */
export const MAX_DESCRIPTION = 1024;

export type ParsedSkillFile = { ok: true; skill: SkillDefinition } | { ok: false; message: string };

/** The first paragraph of the body, as Claude Code describes a skill whose frontmatter does not. */
function firstParagraph(body: string): string {
  const para = body
    .trim()
    .split(/\n\s*\n/)[0]
    ?.split('\n')
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .filter((l) => l !== '')
    .join(' ');
  return para ?? '';
}

/**
 * Reads one SKILL.md (Claude Code's format: optional YAML frontmatter with `name`, `description`,
 * `allowed-tools`, `argument-hint`, `disable-model-invocation`; then the instructions). Every fault
 * is gathered into one message and a file with any fault is not loaded: half a skill could
 * pre-approve tools nobody meant to. Keys this version does not use (`model`, `hooks`, …) are ignored.
 */
export function parseSkillFile(
  text: string,
  o: { folderName: string; baseDir: string | null; file: string | null; source: SkillDefinition['source'] },
): ParsedSkillFile {
  // Every frontmatter key is optional in Claude Code, so a SKILL.md of plain Markdown is a skill too.
  const parts = splitFrontmatter(text);
  if (typeof parts === 'string') return { ok: false, message: `Not loaded: ${parts}.` };
  let fm: Record<string, unknown> = {};
  if (parts.yaml !== null) {
    const keys = parseYamlFrontmatter(parts.yaml, { example: 'name, description', allowEmpty: true });
    if (!keys.ok) return { ok: false, message: `Not loaded: ${keys.reason}.` };
    fm = keys.keys;
  }
  const errors: string[] = [];

  let name = o.folderName;
  const rawName = own(fm, 'name');
  if (rawName !== undefined && rawName !== null) {
    if (typeof rawName !== 'string') errors.push('name must be text');
    else name = rawName.trim();
  }
  if (!SKILL_NAME.test(name))
    errors.push(
      `the name "${name.slice(0, 64)}"${rawName === undefined || rawName === null ? ' (its folder’s name)' : ''} must be lowercase letters, digits and hyphens, not start with a hyphen, and be at most 64 characters`,
    );

  const body = parts.body.trim();
  let description = '';
  const rawDescription = own(fm, 'description');
  if (rawDescription !== undefined && rawDescription !== null) {
    if (typeof rawDescription !== 'string') errors.push('description must be text');
    else description = rawDescription.trim();
  }
  if (description === '') description = firstParagraph(body);
  if (description === '')
    errors.push('it has no description (frontmatter description, or a first paragraph)');
  if (description.length > MAX_DESCRIPTION) description = `${description.slice(0, MAX_DESCRIPTION - 1)}…`;

  // `Read, Grep, Bash(git diff:*)`, `Read Grep` or a YAML list.
  const allowedTools =
    ruleList(
      own(fm, 'allowed-tools'),
      {
        splitOnWhitespace: true,
        notAList: 'allowed-tools must be a list of tools or permission rules (Read, Bash(git diff:*), …)',
        notText: (found) => `allowed-tools may contain only tool names and rules (found ${found})`,
        check: (rule) => {
          try {
            // Checked the way settings rules are, so a rule the gate could not use is reported here.
            parseRule(rule, 'session', 'allow', '/');
            return null;
          } catch (error) {
            return error instanceof RuleSyntaxError ? error.message : String(error);
          }
        },
      },
      errors,
    ) ?? [];

  let argumentHint: string | null = null;
  const rawHint = own(fm, 'argument-hint');
  if (rawHint !== undefined && rawHint !== null) {
    if (typeof rawHint !== 'string') errors.push('argument-hint must be text');
    else argumentHint = rawHint.trim().slice(0, 200) || null;
  }

  let modelInvocable = true;
  const rawDisable = own(fm, 'disable-model-invocation');
  if (rawDisable !== undefined && rawDisable !== null) {
    if (typeof rawDisable !== 'boolean') errors.push('disable-model-invocation must be true or false');
    else modelInvocable = !rawDisable;
  }

  if (body === '') errors.push('the body (the skill’s instructions, below the frontmatter) is empty');

  if (errors.length > 0) return { ok: false, message: `Not loaded: ${errors.join('; ')}.` };
  return {
    ok: true,
    skill: {
      name,
      description,
      allowedTools,
      argumentHint,
      modelInvocable,
      body,
      baseDir: o.baseDir,
      source: o.source,
      file: o.file,
    },
  };
}
