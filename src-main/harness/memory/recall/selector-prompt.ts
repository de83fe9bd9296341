import type { MemoryHeader } from './scan-memories';

/** The most memories one turn gets. */
export const MAX_RECALLED = 5;

/**
 * The selector's instructions. It is asked to be selective (an irrelevant memory costs context and
 * can mislead), and to leave out reference notes that merely document a tool already in use (the
 * model has that tool's own description) while keeping notes about that tool's known pitfalls, which
 * the description does not tell.
 */
export const SELECTOR_SYSTEM_PROMPT = `You pick which saved memory files will help answer the user's next message.

You get the user's message, the tools the assistant has, and a list of memory files, each with its file name and description.
Return the file names of at most ${MAX_RECALLED} memories that are clearly useful for this message.

- Be selective. If you are unsure whether a memory helps, leave it out. Returning no files is a good answer.
- Skip memories that are only usage or API documentation for a tool in the list of tools in use: the assistant already has that tool's documentation.
- Do keep memories about known problems, pitfalls, gotchas or workarounds of those tools: those are not in the documentation.
- Use only file names exactly as they appear in the list.

Answer with JSON only, no other text: {"selected_memories": ["file-name.md"]}`;

/** The user-role message of the selector request. */
export function selectorUserMessage(
  query: string,
  headers: readonly MemoryHeader[],
  toolsInUse: readonly string[],
): string {
  const list = headers
    .map((h) => `- ${h.file}${h.type ? ` [${h.type}]` : ''}: ${h.description || h.name}`)
    .join('\n');
  return [
    `User message:\n${query}`,
    `Tools in use: ${toolsInUse.length > 0 ? toolsInUse.join(', ') : '(none)'}`,
    `Memory files:\n${list}`,
  ].join('\n\n');
}
