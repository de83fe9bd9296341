import type { ContentBlock, MessageItem } from '@shared/domain/messages';
import { messageText } from '@shared/domain/messages';
import type { PermissionDenial } from '@shared/domain/permissions';
import { addUsage, ZERO_USAGE, type TokenUsage } from '@shared/domain/usage';
import type { UsageReport } from '../cost/tracker';
import type { LoopEvent } from '../events/agent-event';
import type { DescribedApiError } from '../model/api-errors';
import type { Conversation } from './conversation';

const now = () => new Date().toISOString();

export function usageReport(e: Extract<LoopEvent, { type: 'usage' }>): UsageReport {
  return {
    model: e.model,
    apiId: e.apiId,
    usage: e.usage,
    cacheWrite1hTokens: e.cacheWrite1hTokens,
    webSearchRequests: e.webSearchRequests,
    durationMs: e.durationMs,
    ...(e.purpose ? { purpose: e.purpose } : {}),
  };
}

/**
 * What one user turn's loop events add up to: the conversation they change (messages kept, context
 * replaced, usage — its own and its descendants'), and the turn's result (last text, turns, usage,
 * denials, error, where the next command starts). The engine feeds it every event, in order.
 */
export class TurnFold {
  usage: TokenUsage = ZERO_USAGE;
  numTurns = 0;
  lastText = '';
  error: DescribedApiError | null = null;
  readonly denials: PermissionDenial[] = [];
  /** Set when a tool moved the working directory. */
  cwd: string | null = null;
  /** The assistant message being streamed, kept so an early close can save what arrived. */
  private streaming: { itemId: string; model: string; content: ContentBlock[] } | null = null;

  constructor(private readonly conversation: Conversation) {}

  apply(e: LoopEvent): void {
    switch (e.type) {
      case 'assistant_start':
        this.streaming = { itemId: e.itemId, model: e.model, content: [] };
        break;
      case 'text_delta':
        if (this.streaming) {
          const block = this.streaming.content[e.index];
          this.streaming.content[e.index] = {
            type: 'text',
            text: (block?.type === 'text' ? block.text : '') + e.text,
          };
        }
        break;
      case 'tool_start':
        this.streaming?.content.push(e.block);
        break;
      case 'tombstone':
        if (this.streaming?.itemId === e.itemId) this.streaming = null;
        break;
      case 'assistant':
        this.streaming = null;
        this.numTurns++;
        this.lastText = messageText(e.item.content) || this.lastText;
        this.conversation.record(e.item);
        break;
      case 'user':
        this.conversation.record(e.item);
        break;
      case 'context_replaced':
        this.conversation.replaceContext(e);
        break;
      case 'usage':
        this.conversation.addUsage(usageReport(e));
        this.usage = addUsage(this.usage, e.usage);
        break;
      case 'tool_progress':
        // A descendant's request is paid for by this session too: it joins the total.
        if (e.agent?.type === 'usage') this.conversation.addNestedUsage(usageReport(e.agent));
        break;
      case 'denied':
        this.denials.push(e.denial);
        break;
      case 'cwd':
        this.cwd = e.cwd;
        break;
      case 'error':
        this.error = e.error;
        break;
      default:
        break;
    }
  }

  /** The message that was streaming when the turn was closed early, saved as interrupted. */
  interruptedMessage(): MessageItem | null {
    if (!this.streaming) return null;
    return {
      kind: 'message',
      id: this.streaming.itemId,
      role: 'assistant',
      content: this.streaming.content,
      createdAt: now(),
      status: 'interrupted',
      model: this.streaming.model,
    };
  }
}
