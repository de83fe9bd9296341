import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const CLAUDE_MD_LIMIT = 40_000;

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
}

function readIfSmall(file: string): string | null {
  try {
    if (!existsSync(file) || statSync(file).size > CLAUDE_MD_LIMIT) return null;
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
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
  for (const name of ['CLAUDE.md', 'CLAUDE.local.md']) {
    const text = readIfSmall(path.join(o.projectRoot, name));
    if (text)
      parts.push(
        `Project instructions from ${name} (follow them):\n<instructions>\n${text}\n</instructions>`,
      );
  }
  if (o.append) parts.push(o.append);
  return parts.join('\n\n');
}

function envDetails(o: SystemPromptOptions): string {
  return [
    '<env>',
    `Working directory: ${o.cwd}`,
    `Project root: ${o.projectRoot}`,
    `Is a git repository: ${existsSync(path.join(o.projectRoot, '.git')) ? 'yes' : 'no'}`,
    `Platform: ${o.platform}`,
    `Today's date: ${o.date.toISOString().slice(0, 10)}`,
    '</env>',
  ].join('\n');
}
