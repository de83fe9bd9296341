import type { ContentBlock, MessageItem, TranscriptItem } from '@shared/domain/messages';
import type { SessionActivity } from '@shared/domain/session';
import type { EngineEvent } from '../harness/events/agent-event';
import type { EventHub } from './event-hub';

const now = () => new Date().toISOString();

/**
 * Turns one agent's events into contract events, tagged with the session and the agent: items
 * appended, updated and withdrawn, batched text and tool output, tool results. The same for the
 * session's main agent and for every sub-agent and worker, so the window shows each the same way.
 */
export class AgentStream {
  /** The message being streamed, shown until its final form arrives. */
  streaming: MessageItem | null = null;
  /** The agent's transcript, kept here for agents whose engine the session does not hold. */
  readonly items: TranscriptItem[] = [];

  constructor(
    private readonly hub: EventHub,
    private readonly sessionId: string,
    private readonly agentId: string,
    /** Keep the items (sub-agents); the main agent's are its engine's. */
    private readonly keep: boolean,
  ) {}

  /** The transcript as shown now: the kept items and the message still streaming. */
  transcript(base: readonly TranscriptItem[] = this.items): TranscriptItem[] {
    return this.streaming ? [...base, this.streaming] : [...base];
  }

  /** Handles one event; returns the activity it implies, if it changes it. */
  handle(e: EngineEvent): SessionActivity | null {
    const ids = { sessionId: this.sessionId, agentId: this.agentId };
    switch (e.type) {
      case 'item':
        this.push(e.item);
        this.hub.emit('transcript.appended', { ...ids, item: e.item });
        return null;
      case 'assistant_start':
        this.streaming = {
          kind: 'message',
          id: e.itemId,
          role: 'assistant',
          content: [],
          createdAt: now(),
          status: 'streaming',
          model: e.model,
        };
        this.hub.emit('transcript.appended', { ...ids, item: this.streaming });
        return 'streaming';
      case 'text_delta':
        if (this.streaming?.id === e.itemId) appendText(this.streaming.content, e.index, e.text);
        this.hub.delta({ ...ids, itemId: e.itemId, index: e.index, text: e.text });
        return null;
      case 'tool_start':
        if (this.streaming?.id === e.itemId) {
          this.streaming.content.push(e.block);
          this.hub.emit('transcript.updated', { ...ids, item: structuredClone(this.streaming) });
        }
        return null;
      case 'tool_progress':
        if (e.text !== undefined) this.hub.toolProgress({ ...ids, toolUseId: e.toolUseId, text: e.text });
        return null;
      case 'tool_result':
        this.hub.emit('tool.result', { ...ids, block: e.block });
        return null;
      case 'tombstone':
        if (this.streaming?.id === e.itemId) this.streaming = null;
        this.hub.emit('transcript.removed', { ...ids, itemId: e.itemId });
        return 'thinking';
      case 'assistant':
        this.streaming = null;
        this.push(e.item);
        this.hub.emit('transcript.updated', { ...ids, item: e.item });
        return e.item.content.some((b) => b.type === 'tool_use') ? 'tools' : 'thinking';
      case 'user':
        this.push(e.item);
        this.hub.emit('transcript.appended', { ...ids, item: e.item });
        return 'thinking';
      case 'retry':
      case 'fallback':
        return 'thinking';
      default:
        return null;
    }
  }

  private push(item: TranscriptItem): void {
    if (!this.keep) return;
    const i = this.items.findLastIndex((x) => x.id === item.id);
    if (i < 0) this.items.push(item);
    else this.items[i] = item;
  }
}

function appendText(content: ContentBlock[], index: number, text: string): void {
  const block = content[index];
  content[index] = { type: 'text', text: (block?.type === 'text' ? block.text : '') + text };
  for (let i = 0; i < content.length; i++) content[i] ??= { type: 'text', text: '' };
}
