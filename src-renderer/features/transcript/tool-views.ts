import type { ToolDisplay, ToolUseBlock } from '@shared/domain/messages';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const base = (p: string) => p.split('/').filter(Boolean).at(-1) ?? p;

/**
 * The renderer side of each tool (Claude Code's renderToolUse): a one-line summary of a call's input,
 * keyed by tool name. Unknown tools fall back to their first string argument.
 */
const SUMMARIES: Record<string, (input: Record<string, unknown>) => string> = {
  Read: (i) => {
    const offset = typeof i['offset'] === 'number' ? i['offset'] : null;
    const limit = typeof i['limit'] === 'number' ? i['limit'] : null;
    const range =
      offset !== null || limit !== null
        ? ` (from line ${offset ?? 1}${limit !== null ? `, ${limit} lines` : ''})`
        : '';
    return `${base(str(i['file_path']))}${range}`;
  },
  Write: (i) => base(str(i['file_path'])),
  Edit: (i) => `${base(str(i['file_path']))}${i['replace_all'] === true ? ' (all occurrences)' : ''}`,
  Glob: (i) => `${str(i['pattern'])}${i['path'] ? ` in ${str(i['path'])}` : ''}`,
  Grep: (i) => `/${str(i['pattern'])}/${i['glob'] ? ` in ${str(i['glob'])}` : ''}`,
  Bash: (i) => str(i['description']) || str(i['command']),
  TodoWrite: (i) => `${Array.isArray(i['todos']) ? i['todos'].length : 0} items`,
  Agent: (i) => str(i['description']) || str(i['subagent_type']),
};

export function toolSummary(block: ToolUseBlock): string {
  const summarize = SUMMARIES[block.name];
  if (summarize) return summarize(block.input);
  const first = Object.values(block.input).find((v) => typeof v === 'string');
  return typeof first === 'string' ? first : '';
}

type BashDisplay = Extract<ToolDisplay, { kind: 'bash' }>;

/**
 * How a command ended, in words. When Carapace stops a command (Stop, a failing sibling) or its
 * time runs out, the result carries no exit code (the process tree was killed), so a null code is
 * never shown as "exit null": it is "stopped", "timed out", or a command sent to the background.
 * A number is the command's own status, given as it is: 129–143 is not read as "killed by a
 * signal", since programs exit with those codes themselves (`git` with a bad option exits 129).
 */
export function bashOutcome(display: BashDisplay, input?: Record<string, unknown>): string {
  if (display.timedOut) return 'timed out';
  if (display.exitCode === null)
    return input?.['run_in_background'] === true ? 'running in background' : 'stopped';
  return `exit ${display.exitCode}`;
}

/** A short description of what a result shows, beside the duration (e.g. "lines 1–40 of 200"). */
export function displaySummary(
  display: ToolDisplay | undefined,
  input?: Record<string, unknown>,
): string | null {
  if (!display) return null;
  switch (display.kind) {
    case 'read':
      return display.totalLines === 0
        ? 'empty file'
        : `lines ${display.startLine}–${display.endLine} of ${display.totalLines}`;
    case 'image':
      return `image, ${Math.round(display.bytes / 1024)} KB`;
    case 'diff':
      return display.created ? `created, ${display.added} lines` : `+${display.added} −${display.removed}`;
    case 'files':
      return `${display.count} ${display.count === 1 ? 'match' : 'matches'}${display.truncated ? ' (truncated)' : ''}`;
    case 'bash':
      return bashOutcome(display, input);
    case 'todos':
      return `${display.todos.filter((t) => t.status === 'completed').length}/${display.todos.length} done`;
    case 'agent':
      return display.verdict ? `${display.agentType}, ${display.verdict}` : display.agentType;
  }
}

export type CardState = 'pending' | 'running' | 'done' | 'error';

/**
 * Whether a tool card starts open. A running Bash call shows its command and live output; once done
 * it folds to its one line, unless it failed (the person will want to read why). Diffs and to-do
 * lists are the point of their calls, so they stay open.
 */
export function cardOpenByDefault(name: string, state: CardState, display: ToolDisplay | undefined): boolean {
  if (display?.kind === 'diff' || display?.kind === 'todos') return true;
  if (name !== 'Bash') return false;
  return state === 'running' || state === 'error';
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A running time as a person reads it: "42 s", "3 min 05 s", "1 h 02 min". */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}
