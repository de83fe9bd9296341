import { stringify } from 'yaml';
import type { NewAgentInput } from '@shared/ipc/contract/agent-files';

/**
 * The Markdown of a new agent file in Claude Code's format: YAML frontmatter (name, description,
 * tools as a comma list, model), then the prompt. Values go through the YAML writer, so a
 * description with a colon, a quote or a `---` line stays one value and cannot add keys.
 */
export function newAgentMarkdown(
  input: Pick<NewAgentInput, 'name' | 'description' | 'tools' | 'model' | 'prompt'>,
): string {
  const fm: Record<string, string> = { name: input.name, description: input.description.trim() };
  const tools = input.tools.map((t) => t.trim()).filter((t) => t !== '');
  // No tools line: the agent is offered all of its parent's tools, as Claude Code does.
  if (tools.length > 0) fm['tools'] = tools.join(', ');
  fm['model'] = input.model;
  const yaml = stringify(fm, { lineWidth: 0 }).trimEnd();
  return `---\n${yaml}\n---\n\n${input.prompt.trim()}\n`;
}
