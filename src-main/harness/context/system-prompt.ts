import { existsSync } from 'node:fs';
import path from 'node:path';
import { renderInstructions } from '../memory/instructions/render';
import { renderGitSnapshot, type GitSnapshot } from './git-status';
import type { LoadedInstructions } from '../memory/instructions/types';

export interface SystemPromptOptions {
  cwd: string;
  projectRoot: string;
  platform: string;
  date: Date;
  append?: string | undefined;
  /**
   * A sub-agent's own prompt: it replaces the session's, and only the environment details are
   * added (Claude Code: a sub-agent gets its system prompt plus the environment, nothing else).
   */
  base?: string | undefined;
  /**
   * The instruction files (CLAUDE.md and the rest), loaded by the engine before the turn so this
   * stays synchronous; none when absent.
   */
  instructions?: LoadedInstructions | undefined;
  /** The auto-memory section (harness/memory/memory-prompt.ts); none when memory is off. */
  memory?: string | null | undefined;
  /** Branch and short status, taken once at the session's start (git-status.ts); none outside git. */
  git?: GitSnapshot | null | undefined;
}

/** The system prompt: who the agent is, how to work, where it is, and the project's own instructions. */
export function buildSystemPrompt(o: SystemPromptOptions): string {
  if (o.base !== undefined) return [o.base, envDetails(o)].join('\n\n');
  const parts = [
    "You are Carapace, an AI coding agent. You work in the user's project through tools, under a person's supervision.",
    [
      'How to work:',
      '- Read before you change: use Read, Glob and Grep to understand code, then Edit or Write.',
      '- Make the smallest change that does the job, in the style of the surrounding code.',
      '- Call independent read-only tools together in one message; they run in parallel.',
      '- When a tool is denied, do not retry it unchanged: adapt, or explain what you need.',
      '- Be concise. Say what you changed and what is left, without filler.',
    ].join('\n'),
    envDetails(o),
  ];
  if (o.git) parts.push(renderGitSnapshot(o.git));
  const instructions = o.instructions ? renderInstructions(o.instructions.files) : null;
  if (instructions) parts.push(instructions);
  if (o.memory) parts.push(o.memory);
  if (o.append) parts.push(o.append);
  return parts.join('\n\n');
}

function envDetails(o: SystemPromptOptions): string {
  return [
    '<env>',
    `Working directory: ${o.cwd}`,
    `Project root: ${o.projectRoot}`,
    // The snapshot also finds the repository of a project that is a subfolder of one.
    `Is a git repository: ${o.git || existsSync(path.join(o.projectRoot, '.git')) ? 'yes' : 'no'}`,
    `Platform: ${o.platform}`,
    `Today's date: ${o.date.toISOString().slice(0, 10)}`,
    '</env>',
  ].join('\n');
}
