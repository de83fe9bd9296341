import type { ContentBlock, MessageItem, ToolResultBlock, ToolUseBlock } from '@shared/domain/messages';

/** The tools whose old output microcompact may clear: their results can be had again by rerunning them. */
export const COMPACTABLE_TOOLS: ReadonlySet<string> = new Set([
  'Read',
  'Bash',
  'Grep',
  'Glob',
  'WebFetch',
  'WebSearch',
]);

/** How many of the most recent compactable results always stay verbatim. */
export const DEFAULT_KEEP_RECENT_RESULTS = 5;

/**
 * How long the prompt cache holds an entry after the request that wrote or read it: the API's
 * default (ephemeral) TTL. Every request refreshes it.
 */
export const PROMPT_CACHE_TTL_MS = 5 * 60_000;

export interface MicrocompactOptions {
  keepRecent?: number | undefined;
  /** After this long without a request the cached prefix is taken as gone (the cache TTL). */
  coldAfterMs?: number | undefined;
  /** Milliseconds now (tests move it). */
  now?: (() => number) | undefined;
}

function describeCall(use: ToolUseBlock | undefined): string {
  if (!use) return 'a tool';
  const input = use.input;
  const field = (k: string) => {
    const v = input[k];
    if (typeof v !== 'string') return '';
    const line = v.replace(/\s+/g, ' ').trim();
    return line.length > 80 ? `${line.slice(0, 79)}…` : line;
  };
  switch (use.name) {
    case 'Read':
      return `Read of ${field('file_path')}`;
    case 'Bash':
      return `Bash \`${field('command')}\``;
    case 'Grep':
      return `Grep for ${field('pattern')}`;
    case 'Glob':
      return `Glob ${field('pattern')}`;
    case 'WebFetch':
      return `WebFetch of ${field('url')}`;
    case 'WebSearch':
      return `WebSearch for ${field('query')}`;
    default:
      return use.name;
  }
}

function sizeOf(content: ToolResultBlock['content']): string {
  const texts =
    typeof content === 'string' ? [content] : content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
  const lines = texts.reduce((n, t) => n + (t === '' ? 0 : t.split('\n').length), 0);
  const images = typeof content === 'string' ? 0 : content.length - texts.length;
  const parts = [`${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}`];
  if (images > 0) parts.push(`${images} image${images === 1 ? '' : 's'}`);
  return parts.join(', ');
}

function contentLength(content: ToolResultBlock['content']): number {
  return typeof content === 'string' ? content.length : JSON.stringify(content).length;
}

/** The short text an old result is replaced by, saying what it was and how to get it back. */
export function clearedPlaceholder(
  use: ToolUseBlock | undefined,
  content: ToolResultBlock['content'],
): string {
  return `[old tool output cleared: ${describeCall(use)}, ${sizeOf(content)}. Run the tool again if you need it.]`;
}

/**
 * Microcompact, the cheapest compaction stage: before every request, the outputs of older Read, Bash,
 * Grep, Glob, WebFetch and WebSearch calls — all but the `keepRecent` most recent — are replaced by a
 * one-line placeholder. Only the request changes: the conversation, the transcript on disk and the
 * context window keep the full outputs.
 *
 * The rule that keeps the prompt cache whole: a request's messages are all cached by the next
 * request (the moving breakpoint sits on the last one, request.ts), so clearing any of them would
 * change the cached prefix and turn a cheap cache read into a full-price cache write of everything
 * after it — dearer than the tokens saved. So old results are cleared only when the cache is cold
 * anyway: on the first request of this session's loop, or when the last request was longer ago than
 * the cache's TTL (the person came back after a pause, a long tool ran). While the cache is warm the
 * set of cleared results does not change, and a result once cleared stays cleared, so request k+1
 * repeats request k's messages byte for byte up to request k's breakpoint. (Claude Code clears the same
 * way after a gap; it also has a server-side cache edit for the warm case, which the public API lacks.)
 * Results past the threshold that arrive while the cache is warm are cleared at the next cold start.
 */
export class Microcompact {
  /** tool_use_id → the placeholder its result is sent as. Only grows. */
  private readonly cleared = new Map<string, string>();
  private lastRequestAt: number | null = null;
  private readonly keepRecent: number;
  private readonly coldAfterMs: number;
  private readonly now: () => number;

  constructor(options: MicrocompactOptions = {}) {
    this.keepRecent = options.keepRecent ?? DEFAULT_KEEP_RECENT_RESULTS;
    this.coldAfterMs = options.coldAfterMs ?? PROMPT_CACHE_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** How many results are sent as placeholders. */
  get clearedCount(): number {
    return this.cleared.size;
  }

  /**
   * The messages to send for a request about to start now (the request's copy: `messages` is not
   * changed), and how many results were newly cleared for it. Marks the time as the last request's.
   */
  forRequest(messages: readonly MessageItem[]): { messages: MessageItem[]; newlyCleared: number } {
    const at = this.now();
    const cold = this.lastRequestAt === null || at - this.lastRequestAt > this.coldAfterMs;
    this.lastRequestAt = at;
    let newlyCleared = 0;
    if (cold) newlyCleared = this.clearOld(messages);
    return { messages: this.view(messages), newlyCleared };
  }

  /** The messages as requests send them now (the placeholders so far), without clearing more. */
  view(messages: readonly MessageItem[]): MessageItem[] {
    if (this.cleared.size === 0) return [...messages];
    return messages.map((m) => {
      if (
        m.role !== 'user' ||
        !m.content.some((b) => b.type === 'tool_result' && this.cleared.has(b.tool_use_id))
      )
        return m;
      const content: ContentBlock[] = m.content.map((b) => {
        const text = b.type === 'tool_result' ? this.cleared.get(b.tool_use_id) : undefined;
        return b.type === 'tool_result' && text !== undefined ? { ...b, content: text } : b;
      });
      return { ...m, content };
    });
  }

  private clearOld(messages: readonly MessageItem[]): number {
    const uses = new Map<string, ToolUseBlock>();
    const results: ToolResultBlock[] = [];
    for (const m of messages)
      for (const b of m.content) {
        if (b.type === 'tool_use') uses.set(b.id, b);
        else if (b.type === 'tool_result' && COMPACTABLE_TOOLS.has(uses.get(b.tool_use_id)?.name ?? ''))
          results.push(b);
      }
    let added = 0;
    for (const r of results.slice(0, Math.max(0, results.length - this.keepRecent))) {
      if (this.cleared.has(r.tool_use_id)) continue;
      const text = clearedPlaceholder(uses.get(r.tool_use_id), r.content);
      // A short output costs less than its placeholder: leave it.
      if (contentLength(r.content) <= text.length) continue;
      this.cleared.set(r.tool_use_id, text);
      added++;
    }
    return added;
  }
}
