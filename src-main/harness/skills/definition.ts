/**
 * One skill: a folder with a SKILL.md (YAML frontmatter, then the instructions), Claude Code's format.
 * The model sees its name and description in the Skill tool's description; the body reaches it only
 * when it uses the skill.
 */
export interface SkillDefinition {
  /** What the Skill tool's `skill` input names: the frontmatter `name`, else the folder's name. */
  name: string;
  /** When to use it, shown to the model (the frontmatter, else the body's first paragraph). */
  description: string;
  /** Permission rules (`Read`, `Bash(git diff:*)`) that need no approval while the skill runs. */
  allowedTools: string[];
  /** Shown after the name where the person or the model passes arguments (`argument-hint`). */
  argumentHint: string | null;
  /** `disable-model-invocation: true`: never offered to the model. */
  modelInvocable: boolean;
  /** The instructions, below the frontmatter. */
  body: string;
  /**
   * The skill's folder as shown to the model: its other files are read from here on use. Null for
   * the built-ins, which ship inside the app as one file.
   */
  baseDir: string | null;
  source: 'project' | 'user' | 'plugin' | 'built-in';
  /** The SKILL.md it came from (null for the built-ins, which ship inside the app). */
  file: string | null;
}

/** A skill folder that could not be loaded: reported, skipped, never fatal. */
export interface SkillProblem {
  file: string;
  message: string;
}

/** Where the Skill tool's list comes from: read again when stale, so a new skill is offered at once. */
export type SkillCatalog = () => { skills: SkillDefinition[]; problems: SkillProblem[] };
