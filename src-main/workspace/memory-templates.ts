import type { MemoryScope, MemoryType } from '@shared/domain/memory';
import { formatMemoryFile } from '../harness/memory/frontmatter';
import { MEMORY_INDEX_FILE } from '../harness/memory/dir/paths';
import { isMemoryFile } from './memory-scopes';

/** What each type of memory is for, as the template's starting description says it. */
const DESCRIBE: Record<MemoryType, string> = {
  user: 'Who the person is and how they like to work',
  feedback: 'A correction or preference the person gave',
  project: 'A fact about this project that the code does not say',
  reference: 'Where to find something outside the code',
};

function baseName(name: string): string {
  return (name.split('/').pop() ?? name).replace(/\.md$/i, '');
}

/**
 * The starting text of a new file. Memory files get valid frontmatter for their type (feedback and
 * project with their Why / How to apply lines), written by the same formatter the harness uses.
 */
export function templateFor(scope: MemoryScope, name: string, type: MemoryType | undefined): string {
  if (isMemoryFile(scope, name)) {
    const t = type ?? 'project';
    const reasons = t === 'feedback' || t === 'project';
    return formatMemoryFile({
      name: baseName(name),
      description: DESCRIBE[t],
      type: t,
      body: 'Write the memory here.\n',
      ...(reasons ? { why: 'Why this holds.', howToApply: 'When and how to use it.' } : {}),
    });
  }
  if (name === MEMORY_INDEX_FILE) return '# Memory index\n\n';
  // A rule without `paths` frontmatter loads in every session; adding `paths` makes it conditional.
  if (scope === 'rules') return '# Rule\n\n';
  return '# Instructions\n\n';
}
