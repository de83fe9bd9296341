import type {
  ContentBlock,
  MessageItem,
  NoticeItem,
  ToolResultBlock,
  ToolUseBlock,
  TranscriptItem,
} from '@shared/domain/messages';

/** The quiet kinds of tool call: they only look around, so a run of them folds into one line. */
export type QuietKind = 'read' | 'search' | 'list';

/**
 * Whether a finished call only read, searched or listed: by tool for the file tools, by the main
 * process's classification of the command for Bash. A failed call is never folded away, nor one
 * still running (its kind may not be known yet).
 */
export function quietKind(block: ToolUseBlock, result: ToolResultBlock | undefined): QuietKind | null {
  if (!result || result.is_error === true) return null;
  switch (block.name) {
    case 'Read':
      return 'read';
    case 'Grep':
    case 'Glob':
      return 'search';
    case 'LS':
      return 'list';
    case 'Bash': {
      const d = result.meta?.display;
      // Only what the analysis proved read-only: `find -delete` is a "search" that writes.
      if (d?.kind !== 'bash' || d.readOnly !== true) return null;
      return d.category === 'read' || d.category === 'search' || d.category === 'list' ? d.category : null;
    }
    default:
      return null;
  }
}

const PHRASES: Record<QuietKind, [string, string, string]> = {
  read: ['read', 'file', 'files'],
  search: ['searched', 'pattern', 'patterns'],
  list: ['listed', 'directory', 'directories'],
};

/** "Read 4 files, searched 2 patterns": what a folded run did, in reading order of first appearance. */
export function foldSummary(kinds: readonly QuietKind[]): string {
  const counts = new Map<QuietKind, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  const text = [...counts]
    .map(([k, n]) => {
      const [verb, one, many] = PHRASES[k];
      return `${verb} ${n} ${n === 1 ? one : many}`;
    })
    .join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The smallest run worth folding: a single quiet call keeps its own card. */
export const MIN_FOLD = 2;

export type Unit =
  | { kind: 'item'; item: TranscriptItem }
  /** Consecutive assistant messages that only made quiet calls, shown as one foldable line. */
  | { kind: 'fold'; id: string; messages: MessageItem[]; summary: string };

type Results = Readonly<Record<string, ToolResultBlock>> | undefined;

function toolUses(m: MessageItem): ToolUseBlock[] {
  return m.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

/** A finished assistant message with nothing to read but quiet calls (thinking and blank text aside). */
function quietMessage(m: MessageItem, results: Results): QuietKind[] | null {
  if (m.role !== 'assistant' || m.status !== 'complete') return null;
  const kinds: QuietKind[] = [];
  for (const b of m.content) {
    if (b.type === 'thinking') continue;
    if (b.type === 'text') {
      if (b.text.trim() !== '') return null;
      continue;
    }
    if (b.type !== 'tool_use') return null;
    const k = quietKind(b, results?.[b.id]);
    if (!k) return null;
    kinds.push(k);
  }
  return kinds.length > 0 ? kinds : null;
}

/** Items the transcript shows nothing for: tool results appear on their cards. */
function invisible(item: TranscriptItem): boolean {
  return item.kind === 'message' && item.role === 'user' && item.origin === 'tool_results';
}

const isRetry = (item: TranscriptItem | undefined): item is NoticeItem =>
  item?.kind === 'notice' && item.code === 'retry';

/**
 * One line for a run of API retry notices ("Overloaded; retrying in 2.0 s (attempt 3 of 10)."):
 * the last one's words (its attempt count and error), under the first one's id, so the line
 * updates in place as the attempts go by instead of stacking.
 */
export function collapseRetries(items: readonly TranscriptItem[]): TranscriptItem[] {
  if (!items.some(isRetry)) return items as TranscriptItem[];
  const out: TranscriptItem[] = [];
  for (const item of items) {
    const prev = out.at(-1);
    if (isRetry(item) && isRetry(prev)) out[out.length - 1] = { ...item, id: prev.id };
    else out.push(item);
  }
  return out;
}

/** How the last turn ended, when it did not finish: what the transcript offers Retry for. */
export type TurnFailure =
  | { kind: 'error'; text: string; code: string | undefined }
  /** The app closed (or died) while the reply streamed. */
  | { kind: 'exit'; text: string };

/** Items a person does not see in the transcript, so they do not count as "the last thing". */
function hiddenAtEnd(item: TranscriptItem): boolean {
  if (item.kind === 'notice') return item.code === 'transcript_repaired' || item.code === 'agent_transcript';
  return item.role === 'user' && (item.origin === 'tool_results' || item.origin === 'interrupt');
}

/** What the session's summary says about retrying (from the main process). */
export interface RetryState {
  /** A turn is running. */
  working: boolean;
  /**
   * The main process would accept a retry. An error can end a turn whose last word is the model's
   * (the output limit hit again and again, an internal error): Retry there would only be refused.
   */
  canRetry: boolean;
}

/**
 * Whether the last turn failed (an API error that retries did not cure, a dropped connection) or was
 * cut off by the app closing: the last visible item is an error notice, or the note left when the
 * app closed mid-reply. Null while a turn runs, after one that finished or the person stopped, and
 * whenever the main process says there is nothing to retry.
 */
export function turnFailure(
  items: readonly TranscriptItem[],
  { working, canRetry }: RetryState,
): TurnFailure | null {
  if (working || !canRetry) return null;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (!item || hiddenAtEnd(item)) continue;
    if (item.kind !== 'notice') return null;
    if (item.code === 'interrupted_by_exit') return { kind: 'exit', text: item.text };
    if (item.level === 'error') return { kind: 'error', text: item.text, code: item.code };
    // A recovery note (a fallback model, a retry that then succeeded) is not the end of the story.
    if (item.code === 'retry') continue;
    return null;
  }
  return null;
}

/**
 * Groups a transcript for display: runs of assistant messages that only read, searched or listed
 * (with the tool results between them) become one fold when they made at least {@link MIN_FOLD} calls.
 */
export function foldTranscript(items: readonly TranscriptItem[], results: Results): Unit[] {
  const units: Unit[] = [];
  let run: { messages: MessageItem[]; kinds: QuietKind[] } | null = null;
  const close = () => {
    if (!run) return;
    if (run.kinds.length >= MIN_FOLD) {
      const first = run.messages[0];
      if (first)
        units.push({
          kind: 'fold',
          id: `fold-${first.id}`,
          messages: run.messages,
          summary: foldSummary(run.kinds),
        });
    } else for (const m of run.messages) units.push({ kind: 'item', item: m });
    run = null;
  };
  for (const item of collapseRetries(items)) {
    if (invisible(item)) {
      if (!run) units.push({ kind: 'item', item });
      continue;
    }
    const kinds = item.kind === 'message' ? quietMessage(item, results) : null;
    if (kinds && item.kind === 'message') {
      run ??= { messages: [], kinds: [] };
      run.messages.push(item);
      run.kinds.push(...kinds);
      continue;
    }
    close();
    units.push({ kind: 'item', item });
  }
  close();
  return units;
}

/** Every tool use of the messages in a fold, in order. */
export function foldedCalls(messages: readonly MessageItem[]): ToolUseBlock[] {
  return messages.flatMap(toolUses);
}

export type BlockUnit =
  | { kind: 'block'; block: ContentBlock; index: number }
  | { kind: 'fold'; id: string; calls: ToolUseBlock[]; summary: string };

/** Within one message: consecutive quiet calls (at least {@link MIN_FOLD}) become one fold. */
export function foldBlocks(content: readonly ContentBlock[], results: Results): BlockUnit[] {
  const units: BlockUnit[] = [];
  let run: { calls: ToolUseBlock[]; kinds: QuietKind[]; start: number } | null = null;
  const close = () => {
    if (!run) return;
    const first = run.calls[0];
    if (run.calls.length >= MIN_FOLD && first)
      units.push({ kind: 'fold', id: `fold-${first.id}`, calls: run.calls, summary: foldSummary(run.kinds) });
    else run.calls.forEach((block, i) => units.push({ kind: 'block', block, index: (run?.start ?? 0) + i }));
    run = null;
  };
  content.forEach((block, index) => {
    const k = block.type === 'tool_use' ? quietKind(block, results?.[block.id]) : null;
    if (k && block.type === 'tool_use') {
      run ??= { calls: [], kinds: [], start: index };
      run.calls.push(block);
      run.kinds.push(k);
      return;
    }
    close();
    units.push({ kind: 'block', block, index });
  });
  close();
  return units;
}
