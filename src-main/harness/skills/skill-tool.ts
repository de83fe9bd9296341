import { z } from 'zod';
import type { TextBlock } from '@shared/domain/messages';
import { trustKey, type TrustLookup } from '../permissions/trust';
import { buildTool, type AnyTool, type ToolOutput, type ToolProgress } from '../tools/tool';
import baseDescription from './prompts/skill-tool.md?raw';
import type { SkillCatalog, SkillDefinition } from './definition';
import type { SkillGrants } from './grants';
import { MAX_SKILL_FILE_BYTES } from './read-skill-file';
import { skillFiles } from './skill-files';

/**
 * The listing of skills in the tool's description is capped, as Claude Code caps it by characters:
 * a project with hundreds of skills must not spend the context window on their descriptions.
 */
export const SKILL_LISTING_CHARS = 15_000;
/** One skill's description in the listing; the whole of it is in its SKILL.md. */
const LISTED_DESCRIPTION_CHARS = 250;

const inputSchema = z.strictObject({
  skill: z.string().min(1).max(200).describe('The skill name, as listed (e.g. "review")'),
  args: z.string().max(10_000).optional().describe('Optional arguments for the skill'),
});

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The `- name: description` lines the model chooses from, cut at the cap with a count of the rest. */
export function skillListing(skills: readonly SkillDefinition[], maxChars = SKILL_LISTING_CHARS): string {
  const offered = skills.filter((s) => s.modelInvocable);
  if (offered.length === 0) return 'Available skills: none.';
  const lines: string[] = [];
  let used = 0;
  for (const s of offered) {
    const hint = s.argumentHint ? ` (args: ${oneLine(s.argumentHint, 80)})` : '';
    const line = `- ${s.name}${hint}: ${oneLine(s.description, LISTED_DESCRIPTION_CHARS)}`;
    if (used + line.length + 1 > maxChars) break;
    lines.push(line);
    used += line.length + 1;
  }
  const left = offered.length - lines.length;
  const more =
    left > 0
      ? `\n(${left} more skill${left === 1 ? '' : 's'} not listed: the list is capped at ${maxChars} characters.)`
      : '';
  return `<available_skills>\n${lines.join('\n')}${more}\n</available_skills>`;
}

/**
 * The longest text a skill may expand to (as a command's, commands/expand.ts). A 512 KB SKILL.md of
 * `$ARGUMENTS` times the model's 10,000-character `args` would otherwise be built whole, half a
 * gigabyte in the main process, before the result's own cut could apply.
 */
export const MAX_SKILL_PROMPT_CHARS = 1_000_000;

export class SkillTooLongError extends Error {
  constructor(name: string) {
    super(
      `The skill "${name}" would expand to more than ${MAX_SKILL_PROMPT_CHARS.toLocaleString('en-US')} characters (its SKILL.md repeats $ARGUMENTS, or the arguments are very long); it was not run. Use it with shorter arguments.`,
    );
    this.name = 'SkillTooLongError';
  }
}

/** The body as the model gets it: `$ARGUMENTS` and `${CLAUDE_SKILL_DIR}` filled in, as Claude Code does. */
export function expandBody(skill: SkillDefinition, args: string | undefined): string {
  let body = skill.body;
  if (skill.baseDir !== null) body = body.replaceAll('${CLAUDE_SKILL_DIR}', skill.baseDir);
  const given = args?.trim() ?? '';
  const uses = body.split('$ARGUMENTS').length - 1;
  // Measured before anything is built.
  if (body.length + uses * (given.length - '$ARGUMENTS'.length) > MAX_SKILL_PROMPT_CHARS)
    throw new SkillTooLongError(skill.name);
  if (uses > 0) return body.replaceAll('$ARGUMENTS', given);
  return given === '' ? body : `${body}\n\nARGUMENTS: ${given}`;
}

export interface SkillToolOptions {
  catalog: SkillCatalog;
  grants: SkillGrants;
  projectRoot: string;
  /**
   * The folder's trust: a project's skill pre-approves only the rules this person already accepted
   * as allow rules for the folder. A cloned repository's SKILL.md is project-controlled text, so
   * its `allowed-tools` widen nothing on their own, as its settings' allow rules do not.
   */
  trust?: TrustLookup | undefined;
}

/** Which of a skill's `allowed-tools` may be granted, and which the folder's trust leaves out. */
function grantable(skill: SkillDefinition, o: SkillToolOptions): { granted: string[]; refused: string[] } {
  if (skill.source !== 'project') return { granted: [...skill.allowedTools], refused: [] };
  const accepted = o.trust?.accepted(o.projectRoot) ?? new Set<string>();
  const granted = skill.allowedTools.filter((r) => accepted.has(trustKey.allow(r)));
  return { granted, refused: skill.allowedTools.filter((r) => !granted.includes(r)) };
}

/**
 * Claude Code's Skill tool (`{skill, args?}`): offers the skills by name and description, and on
 * use hands the model the SKILL.md body and the skill's folder (whose other files it reads with
 * Read when the body asks). The skill's `allowed-tools` need no approval until the turn ends.
 * Not concurrency-safe: it changes what the gate allows for the calls after it.
 */
export function skillTool(o: SkillToolOptions): AnyTool {
  const tool = buildTool({
    name: 'Skill',
    description: baseDescription,
    inputSchema,
    isReadOnly: () => true,
    // The body is the result, whole: cut to head and tail, the instructions would be lost.
    maxResultChars: MAX_SKILL_FILE_BYTES + 20_000,
    // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- no progress, nothing to wait for
    async *call(input): AsyncGenerator<ToolProgress, ToolOutput> {
      const name = input.skill.trim().replace(/^\//, '');
      const skills = o.catalog().skills;
      const skill = skills.find((s) => s.name === name);
      if (!skill || !skill.modelInvocable) {
        const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
        const offered = skills.filter((s) => s.modelInvocable).map((s) => s.name);
        return {
          content: skill
            ? `The skill "${shown}" is for the person to run (disable-model-invocation); it cannot be used by the model.`
            : `There is no skill "${shown}". Available: ${offered.join(', ') || 'none'}.`,
          isError: true,
        };
      }
      let body: string;
      try {
        body = expandBody(skill, input.args);
      } catch (error) {
        if (error instanceof SkillTooLongError) return { content: error.message, isError: true };
        throw error;
      }
      // Granted only once the skill is known to run.
      const { granted, refused } = grantable(skill, o);
      o.grants.add(granted);
      const about: string[] = [];
      if (skill.baseDir !== null) {
        about.push(`Base directory for this skill: ${skill.baseDir}`);
        const files = skillFiles(skill.baseDir);
        if (files.names.length > 0)
          about.push(
            `Other files in it (read them with Read when the instructions call for them):\n${files.names.map((f) => `- ${f}`).join('\n')}${files.more ? '\n- …' : ''}`,
          );
      } else about.push('This skill ships with Carapace; it has no folder of other files.');
      if (granted.length > 0) about.push(`Pre-approved while it runs: ${granted.join(', ')}`);
      if (refused.length > 0)
        about.push(
          `Not pre-approved (this project's skill asks for them, and the folder's trust does not cover them; they are decided as usual): ${refused.join(', ')}`,
        );
      const blocks: TextBlock[] = [
        { type: 'text', text: `Launching skill: ${skill.name}` },
        { type: 'text', text: `${about.join('\n\n')}\n\n${body}` },
      ];
      return { content: blocks };
    },
  });
  // The catalogue is read when the request is built, so a skill added mid-session is offered.
  Object.defineProperty(tool, 'description', {
    get: () => `${baseDescription.trim()}\n\n${skillListing(o.catalog().skills)}`,
  });
  return tool;
}
