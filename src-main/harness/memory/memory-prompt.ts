import { readFileSync } from 'node:fs';
import type { LoadedFile } from './instructions/types';
import { readMemoryIndex, type MemoryIndex } from './dir/memory-index';
import { resolveMemoryDir, type MemorySettingsInput } from '../permissions/memory-settings';
import { MEMORY_INDEX_FILE, memoryIndexPath, teamMemoryDir } from './dir/paths';
import { validateMemoryPath } from './dir/validate-memory-path';

export interface MemoryPromptInput {
  memoryDir: string;
  /** MEMORY.md's text as on disk; null when there is none yet. It is cut here, not by the caller. */
  indexText: string | null;
  /** Why MEMORY.md was not read although it may exist (a link out of the memory directory). */
  indexRefused?: string;
}

/**
 * The system-prompt section for auto memory: where the directory is, what each of the four types is
 * for, what is never saved, how to write a memory, and MEMORY.md (cut to its limits, with the
 * warning the cut leaves). Words follow Claude Code's, so a model that knows one knows the other.
 */
export function buildMemoryPrompt(o: MemoryPromptInput): string {
  const index: MemoryIndex | null = o.indexText === null ? null : readMemoryIndex(o.indexText);
  const parts = [
    '# Auto memory',
    `You have a persistent memory directory at ${o.memoryDir}. What you save there is loaded into ` +
      'future sessions of this project, so save what a future you would want to know. Save a memory ' +
      'with the Write or Edit tool: one Markdown file per memory inside that directory (no permission ' +
      `is needed there), then add one short line for it to ${MEMORY_INDEX_FILE}. Team memory, shared ` +
      `with the other people on the project, lives in ${teamMemoryDir(o.memoryDir)}.`,
    [
      'Each memory file starts with YAML frontmatter:',
      '```',
      '---',
      'name: short-name',
      'description: one line saying what this memory is, used to decide when it is relevant',
      'type: user | feedback | project | reference',
      '---',
      '```',
      'Then the memory itself. feedback and project memories must also carry a line',
      '`**Why:** <the reason>` and a line `**How to apply:** <when and how to use it>`.',
    ].join('\n'),
    [
      'The four types, and when to use each:',
      '- user: who the person is, their role, expertise and preferences that hold across tasks.',
      '- feedback: a correction or confirmation of how you work ("don\'t mock the database in tests"), ' +
        'saved when the person corrects you or approves a non-obvious choice.',
      '- project: facts about ongoing work not visible in the code: goals, deadlines, decisions and ' +
        'who made them, incidents.',
      '- reference: where to find things outside the project: dashboards, tickets, documents, channels.',
    ].join('\n'),
    [
      'Never save these, even when asked (they go stale or can be read from the source):',
      '- code patterns, conventions or snippets (read the code);',
      '- architecture or file structure (read the code);',
      '- git history, who changed what (use git log and git blame);',
      '- debugging recipes and fixes (the fix is in the code, the story in the commit);',
      '- anything the CLAUDE.md files already say;',
      '- transient task details: the current task, its progress, temporary state.',
      'Before saving, check for an existing memory to update rather than adding a duplicate; remove ' +
        'memories that turn out wrong. Memories are point-in-time notes: verify them against the code ' +
        'before relying on them.',
    ].join('\n'),
  ];
  if (o.indexRefused !== undefined) {
    parts.push(`## ${MEMORY_INDEX_FILE}\n${MEMORY_INDEX_FILE} was not loaded: ${o.indexRefused}`);
  } else if (index === null || index.text.trim() === '') {
    parts.push(`## ${MEMORY_INDEX_FILE}\nYour ${MEMORY_INDEX_FILE} is empty: nothing is saved yet.`);
  } else {
    parts.push(`## ${MEMORY_INDEX_FILE}\n${index.text.trimEnd()}`);
  }
  return parts.join('\n\n');
}

export interface MemoryPromptSection {
  /** The section for the system prompt; null when auto memory is off. */
  section: string | null;
  memoryDir: string | null;
  /** MEMORY.md as it went into the prompt, for "Loaded in this session" (scope `auto-memory`). */
  loaded: LoadedFile | null;
  /** Settings values that were refused, in plain English. */
  problems: string[];
}

/**
 * Everything the system prompt needs from auto memory, read at session start: the settings decide
 * whether memory is on and where it is, and MEMORY.md is read (and cut) from there. Never throws.
 */
export function loadMemoryPromptSection(input: MemorySettingsInput): MemoryPromptSection {
  const { dir, settings } = resolveMemoryDir(input);
  if (dir === null) return { section: null, memoryDir: null, loaded: null, problems: settings.problems };
  const file = memoryIndexPath(dir);
  let indexText: string | null = null;
  let indexRefused: string | undefined;
  // Checked like any memory file: a MEMORY.md that is a link to `~/.aws/credentials` would otherwise
  // put that file into the system prompt (and so into the model's context, and its answers).
  const checked = validateMemoryPath(file, dir);
  if (!checked.ok) {
    indexRefused = `${checked.message} It was left out of this session for safety; replace it with an ordinary file.`;
  } else {
    try {
      indexText = readFileSync(checked.path, 'utf8');
    } catch {
      // No MEMORY.md yet (or unreadable): the section says the index is empty.
    }
  }
  const loaded: LoadedFile | null =
    indexText === null
      ? null
      : { scope: 'auto-memory', path: file, importedBy: null, text: readMemoryIndex(indexText).text };
  return {
    section: buildMemoryPrompt({
      memoryDir: dir,
      indexText,
      ...(indexRefused !== undefined ? { indexRefused } : {}),
    }),
    memoryDir: dir,
    loaded,
    problems: settings.problems,
  };
}

/**
 * A session's memory section, read once at session start (its first turn) and kept: MEMORY.md is a
 * start-of-session index, and a system prompt that changed whenever the model saved a memory would
 * throw the prompt cache away each time. Memories saved during the session reach the next one.
 */
export class SessionMemoryPrompt {
  private loaded: MemoryPromptSection | null = null;

  constructor(private readonly input: MemorySettingsInput) {}

  section(): MemoryPromptSection {
    return (this.loaded ??= loadMemoryPromptSection(this.input));
  }
}
