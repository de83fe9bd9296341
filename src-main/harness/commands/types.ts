/** Where a custom command comes from: the project's `.claude/commands` or the user's own folder. */
export type CommandScope = 'project' | 'user';

/**
 * One custom slash command: a Markdown file under a commands folder. Its name is the file's name
 * without `.md`; a subfolder adds a namespace (`frontend/component.md` is `/frontend:component`), as
 * Claude Code names them.
 */
export interface CustomCommand {
  /** Without the slash: `fix-issue`, `frontend:component`. */
  name: string;
  scope: CommandScope;
  /** The subfolders joined with `:`; null at the folder's top. */
  namespace: string | null;
  /** Where it was read, for messages (the path as the person knows it, not a link's target). */
  file: string;
  /** Frontmatter `description`, else the body's first non-empty line (cut short). */
  description: string;
  /** Frontmatter `argument-hint`: shown after the name in the autocomplete. */
  argumentHint: string | null;
  /** Frontmatter `allowed-tools`: permission rules allowed for the turn the command starts. */
  allowedTools: string[];
  /** Frontmatter `model`: the model of the turn the command starts (alias or id); null keeps the session's. */
  model: string | null;
  /** The Markdown after the frontmatter: the prompt, before its arguments are put in. */
  body: string;
}

export interface CommandFileProblem {
  file: string;
  message: string;
}
