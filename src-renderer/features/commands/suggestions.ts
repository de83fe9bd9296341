import type { ModelInfo } from '@shared/domain/models';
import { BUILTIN_COMMANDS, type CustomCommandInfo } from '@shared/ipc/contract/commands';

/** One row of the autocomplete: a command, or (after `/model `) a model to switch to. */
export type Suggestion =
  | {
      kind: 'command';
      name: string;
      description: string;
      argumentHint: string | null;
      /** Where it comes from: built in, or the project's / the user's command files. */
      source: 'builtin' | 'project' | 'user';
    }
  | { kind: 'model'; id: string; label: string };

/** At most this many rows: the list is a picker, not a browser (`/help` lists them all). */
export const MAX_SUGGESTIONS = 50;

/**
 * What the draft is asking to complete: a command name being typed (`/co`), a model after `/model `,
 * or nothing (not a command, or a command name already followed by its arguments).
 */
export function completionQuery(draft: string): { kind: 'command' | 'model'; query: string } | null {
  if (!draft.startsWith('/') || draft.includes('\n')) return null;
  const name = /^\/([^\s]*)$/.exec(draft);
  if (name) return { kind: 'command', query: name[1] ?? '' };
  const model = /^\/model[ \t]+(\S*)$/.exec(draft);
  if (model) return { kind: 'model', query: model[1] ?? '' };
  return null;
}

/** Ranks a name: starts with the query first, then contains it (a namespace part, say); else out. */
function rank(name: string, query: string): number {
  const n = name.toLowerCase();
  const q = query.toLowerCase();
  if (n.startsWith(q)) return 0;
  if (n.split(':').some((part) => part.startsWith(q))) return 1;
  if (n.includes(q)) return 2;
  return -1;
}

export function allCommands(
  custom: readonly CustomCommandInfo[],
): Extract<Suggestion, { kind: 'command' }>[] {
  return [
    ...BUILTIN_COMMANDS.map((c) => ({
      kind: 'command' as const,
      name: c.name,
      description: c.description,
      argumentHint: c.argumentHint,
      source: 'builtin' as const,
    })),
    // A custom command named like a built-in is never run (the built-in wins), so it is not offered.
    ...custom
      .filter((c) => !BUILTIN_COMMANDS.some((b) => b.name === c.name))
      .map((c) => ({
        kind: 'command' as const,
        name: c.name,
        description: c.description,
        argumentHint: c.argumentHint,
        source: c.scope,
      })),
  ];
}

/** The rows for a draft: commands matching the name typed so far, or models matching after `/model `. */
export function suggestionsFor(
  draft: string,
  custom: readonly CustomCommandInfo[],
  models: readonly ModelInfo[],
): Suggestion[] {
  const q = completionQuery(draft);
  if (!q) return [];
  if (q.kind === 'model')
    return models
      .filter((m) => rank(m.id, q.query) >= 0 || rank(m.label, q.query) >= 0)
      .map((m) => ({ kind: 'model' as const, id: m.id, label: m.label }))
      .slice(0, MAX_SUGGESTIONS);
  return allCommands(custom)
    .map((c) => ({ c, r: rank(c.name, q.query) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.c.name.localeCompare(b.c.name))
    .map((x) => x.c)
    .slice(0, MAX_SUGGESTIONS);
}

/** The model a `/model <name>` means: an id, a label, or an alias such as `haiku` (the first match). */
export function findModel(models: readonly ModelInfo[], name: string): ModelInfo | null {
  const n = name.trim().toLowerCase();
  if (n === '') return null;
  return (
    models.find((m) => m.id.toLowerCase() === n || m.label.toLowerCase() === n) ??
    models.find((m) => m.id.toLowerCase().includes(n)) ??
    null
  );
}
