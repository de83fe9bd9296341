import type { InstructionScope, LoadedFile } from './types';

/** What each scope is, in the words Claude Code uses, so the model knows whose instruction it reads. */
const SCOPE_NOTE: Record<InstructionScope, string> = {
  managed: 'managed instructions, set by the administrator for everyone',
  user: "user's private global instructions for all projects",
  project: 'project instructions, checked into the codebase',
  local: "user's private project instructions, not checked in",
  rules: 'project rules',
  'auto-memory': "user's auto-memory, persists across conversations",
  'team-memory': 'team memory, shared with the team',
};

/** One file as the model sees it: where it came from, then its text. Blank files say nothing. */
export function renderInstructionFile(file: LoadedFile): string | null {
  if (file.text.trim() === '') return null;
  const via = file.importedBy ? `, imported by ${file.importedBy}` : '';
  return `Contents of ${file.path} (${SCOPE_NOTE[file.scope]}${via}):\n\n${file.text}`;
}

/** The instruction section of the system prompt; null when there is nothing to say. */
export function renderInstructions(files: readonly LoadedFile[]): string | null {
  const parts = files.map(renderInstructionFile).filter((p): p is string => p !== null);
  if (parts.length === 0) return null;
  return [
    'Codebase and user instructions are shown below. Follow them: they override default behaviour. Files later in the list take precedence over earlier ones.',
    ...parts,
  ].join('\n\n');
}

/** What a Read result carries when reading a file brought new instructions into play. */
export function renderAttachment(files: readonly LoadedFile[]): string | null {
  const parts = files.map(renderInstructionFile).filter((p): p is string => p !== null);
  if (parts.length === 0) return null;
  return [
    '<system-reminder>',
    'Reading this file brought these instructions into play; follow them when working on files here:',
    '',
    parts.join('\n\n'),
    '</system-reminder>',
  ].join('\n');
}
