import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';

export const SAVE_TOOL_NAME = 'save_consolidated_memories';

/**
 * What consolidation asks of the model. The memory rules (four types, Why / How to apply, what is
 * never saved) are restated because this call has none of the session's system prompt.
 */
export const CONSOLIDATE_SYSTEM_PROMPT = `You consolidate an assistant's saved memories about one project: a folder of Markdown memory files and their index, MEMORY.md.

Each memory file has YAML frontmatter with name, description (one line: what it is about, used to decide when to recall it) and type (user, feedback, project or reference), then a Markdown body. Memories of type feedback and project must keep a **Why:** line and a **How to apply:** line in the body.

Do this:
1. Merge memories that cover the same thing into one file.
2. Remove contradictions: where two memories disagree, keep the newer one (each file shows when it was saved) and drop the outdated statement.
3. Turn vague notes into specific facts ("the build is slow sometimes" becomes what is slow, when, and what to do), using only what the memories say. Never invent facts.
4. Delete memories that are obsolete, or that hold what should never be saved: code patterns, architecture, git history, debugging recipes, what CLAUDE.md already says, details of one finished task.
5. Rewrite MEMORY.md as the index: one line per memory, "- [name](file.md) — description", at most 200 lines.

Then call ${SAVE_TOOL_NAME} once with every file to write (new, changed and MEMORY.md, each whole) and the file names to remove. Leave files that need no change out of both lists. Use plain file names ending in .md (memories of the team folder keep their "team/" prefix); never a path outside the folder.`;

export const ConsolidationOutput = z.object({
  files: z
    .array(z.object({ name: z.string().min(1).max(200), content: z.string().max(200_000) }))
    .max(300)
    .default([]),
  remove: z.array(z.string().min(1).max(200)).max(300).default([]),
});
export type ConsolidationOutput = z.output<typeof ConsolidationOutput>;

export const SAVE_TOOL: Anthropic.Tool = {
  name: SAVE_TOOL_NAME,
  description:
    'Saves the consolidated memory folder: files to write whole (including MEMORY.md) and files to remove.',
  input_schema: {
    type: 'object',
    properties: {
      files: {
        type: 'array',
        description: 'Files to write, each whole: new, changed, and MEMORY.md.',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'File name, e.g. "deploy-steps.md" or "team/ci.md".' },
            content: { type: 'string', description: 'The whole file: frontmatter and body.' },
          },
          required: ['name', 'content'],
        },
      },
      remove: {
        type: 'array',
        description:
          'Names of existing memory files to remove (merged into others, outdated or not worth keeping).',
        items: { type: 'string' },
      },
    },
    required: ['files', 'remove'],
  },
};

/** The memory folder as the model reads it: each file with its age, then the current index. */
export function consolidationUserMessage(
  memories: readonly { file: string; age: string; content: string }[],
  index: string | null,
): string {
  const files = memories.map(
    (m) => `<memory file="${m.file}" saved="${m.age}">\n${m.content.trimEnd()}\n</memory>`,
  );
  return [
    `The memory folder holds ${memories.length} memory files.`,
    ...files,
    index === null ? 'There is no MEMORY.md yet.' : `<index file="MEMORY.md">\n${index.trimEnd()}\n</index>`,
  ].join('\n\n');
}
