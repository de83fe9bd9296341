import { z } from 'zod';
import { channel, ProjectRef } from './common';

/**
 * Settings → Agents (and `/agents`): the sub-agent definitions a project's sessions see, and the
 * project's and the person's agent files created, edited and deleted. A file is addressed by the
 * folder it is in and its path inside that folder, never by an absolute path: the main process
 * chooses the folders, so the window cannot name a file anywhere else.
 */

/**
 * The folders whose files can be edited: the project's `.claude/agents`, Carapace's own
 * `$CARAPACE_HOME/agents` (where new user agents go), and Claude Code's `~/.claude/agents`.
 */
export const AgentFolderId = z.enum(['project', 'user', 'claude-user']);
export type AgentFolderId = z.infer<typeof AgentFolderId>;

/** One file in an editable folder: `reviewer.md`, or `team/reviewer.md` in a subfolder. */
export const AgentFileRef = z.strictObject({
  folder: AgentFolderId,
  // Checked again, segment by segment, in the main process (no `..`, no NUL, `.md` only).
  path: z.string().min(1).max(1000),
});
export type AgentFileRef = z.infer<typeof AgentFileRef>;

export const AgentSource = z.enum(['built-in', 'project', 'user', 'plugin']);
export type AgentSource = z.infer<typeof AgentSource>;

export const AgentFileEntry = z.object({
  name: z.string(),
  description: z.string(),
  source: AgentSource,
  /** Where it is defined, as a path to show; null for a built-in. */
  file: z.string().nullable(),
  /** How to edit or delete it; null when read-only (built-in and plugin agents). */
  ref: AgentFileRef.nullable(),
  /** Tools it is offered; null for all of its parent's. */
  tools: z.array(z.string()).nullable(),
  disallowedTools: z.array(z.string()),
  model: z.string(),
  /** The frontmatter's `color`, shown as it is (Claude Code uses it for the agent's label). */
  color: z.string().nullable(),
  /** Whether sessions get this one; false when another definition of the name wins. */
  active: z.boolean(),
  /** What wins over it (a file's path, or `built-in`), when it is not active. */
  overriddenBy: z.string().nullable(),
});
export type AgentFileEntry = z.infer<typeof AgentFileEntry>;

/** A file that is not loaded (malformed, too large, a link out of its folder), with why. */
export const AgentFileProblemView = z.object({
  file: z.string(),
  message: z.string(),
  /** Set when the file is in an editable folder, so it can be fixed or deleted here. */
  ref: AgentFileRef.nullable(),
});
export type AgentFileProblemView = z.infer<typeof AgentFileProblemView>;

export const AgentFilesView = z.object({
  agents: z.array(AgentFileEntry),
  problems: z.array(AgentFileProblemView),
  /** The folders new agents are written to, for the form to show. */
  folders: z.object({ project: z.string(), user: z.string() }),
});
export type AgentFilesView = z.infer<typeof AgentFilesView>;

/** The model choices of the New agent form. */
export const AgentModelChoice = z.enum(['inherit', 'sonnet', 'opus', 'haiku']);
export type AgentModelChoice = z.infer<typeof AgentModelChoice>;

/** Larger than the file cap on purpose: an oversized text is refused in words, not by the schema. */
const AgentText = z.string().max(1024 * 1024);

export const NewAgentInput = z.strictObject({
  projectId: z.string().min(1).max(500),
  scope: z.enum(['project', 'user']),
  // The name's rules (length, characters) are the main process's, so the refusal says which one.
  name: z.string().max(1000),
  description: z.string().max(10_000),
  tools: z.array(z.string().max(1000)).max(200),
  model: AgentModelChoice,
  prompt: AgentText,
});
export type NewAgentInput = z.infer<typeof NewAgentInput>;

const FileInput = z.strictObject({ projectId: z.string().min(1).max(500), ref: AgentFileRef });

export const requests = {
  /** Every agent definition the project's new sessions would see, plus overridden and broken files. */
  'agentFiles.list': channel(ProjectRef, AgentFilesView),
  /** One editable file's raw text and its version (a hash; a save must name the version it edits). */
  'agentFiles.read': channel(FileInput, z.object({ text: z.string(), version: z.string() })),
  /** Writes `<name>.md` in the project's or the user's folder; CONFLICT if the name is taken there. */
  'agentFiles.create': channel(NewAgentInput, z.object({ view: AgentFilesView, ref: AgentFileRef })),
  /**
   * Replaces a file's text, which must parse as an agent (the session loader's own parser);
   * INVALID_INPUT with the parser's message otherwise, CONFLICT if the file changed since `version`.
   */
  'agentFiles.save': channel(
    FileInput.extend({ text: AgentText, version: z.string().max(100) }),
    AgentFilesView,
  ),
  /** Removes the file (a link is removed itself, never what it leads to). */
  'agentFiles.delete': channel(FileInput, AgentFilesView),
} as const;

export const events = {} as const;
