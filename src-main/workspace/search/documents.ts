import { TranscriptItem, type ContentBlock, type MessageItem } from '@shared/domain/messages';

/**
 * What the search index holds for one transcript: a document per searchable piece of a message
 * (the person's or the model's text, each tool call, each tool result), read from the JSONL lines
 * Carapace writes. Thinking, streamed pieces and harness lines are not searched.
 */

export type DocKind = 'user' | 'assistant' | 'tool_call' | 'tool_result' | 'notice';

export interface SearchDoc {
  /** The message (transcript item) the piece belongs to: what Enter scrolls to. */
  itemId: string;
  /** For a tool call or result: the call's id (a result shows on its call's card). */
  toolUseId: string | null;
  kind: DocKind;
  /** Milliseconds since the epoch. */
  at: number;
  model: string | null;
  isError: boolean;
  text: string;
}

/** Text kept (and searched) per piece: a 5 MB tool result is indexed by its head. */
export const MAX_TEXT = 4_000;
export const MAX_RESULT_TEXT = 2_000;
const MAX_INPUT_SUMMARY = 500;
/** Longer lines are skipped unread: no real message line comes near this. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface LineState {
  /** The session's model (from its `session` and `model` lines), for pieces that name none. */
  model: string | null;
  title: string | null;
  firstPrompt: string | null;
  sessionId: string | null;
  projectPath: string | null;
  /** A sub-agent's or teammate's transcript: who it is (its `session` line says). */
  agent?: AgentIdentity | null | undefined;
}

/** The `agent` of a sub-agent's or teammate's `session` line (harness/session/transcript-file.ts). */
export interface AgentIdentity {
  agentId: string;
  parentId: string | null;
  agentType: string;
  name: string;
  /** The Agent call in its parent's transcript that started it; null for a teammate. */
  toolUseId: string | null;
}

export const emptyLineState = (): LineState => ({
  model: null,
  title: null,
  firstPrompt: null,
  sessionId: null,
  projectPath: null,
  agent: null,
});

const strOrNull = (v: unknown): string | null | undefined =>
  typeof v === 'string' ? v : v === null ? null : undefined;

/** The agent a `session` line names, or null when it names none or one of the wrong shape. */
function agentOfLine(v: unknown): AgentIdentity | null {
  if (typeof v !== 'object' || v === null) return null;
  const a = v as Record<string, unknown>;
  const parentId = strOrNull(a['parentId']);
  const toolUseId = strOrNull(a['toolUseId']);
  const { agentId, agentType, name } = a;
  if (typeof agentId !== 'string' || typeof agentType !== 'string' || typeof name !== 'string') return null;
  if (parentId === undefined || toolUseId === undefined) return null;
  return { agentId, parentId, agentType, name: name.slice(0, 200), toolUseId };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A tool call as a person would search for it: its name and the inputs that say what it did. */
export function toolCallText(name: string, input: Record<string, unknown>): string {
  const parts: string[] = [name];
  for (const key of [
    'command',
    'file_path',
    'path',
    'pattern',
    'glob',
    'url',
    'description',
    'prompt',
    'query',
  ]) {
    const v = input[key];
    if (typeof v === 'string' && v !== '') parts.push(v);
  }
  if (parts.length === 1) {
    let json = '';
    try {
      json = JSON.stringify(input);
    } catch {
      // An input that cannot be written out is searched by its tool's name alone.
    }
    parts.push(json.slice(0, MAX_INPUT_SUMMARY));
  }
  return clip(parts.join(' '), MAX_INPUT_SUMMARY + name.length + 1);
}

function resultText(content: Extract<ContentBlock, { type: 'tool_result' }>['content']): string {
  if (typeof content === 'string') return content.slice(0, MAX_RESULT_TEXT + 1);
  let out = '';
  for (const b of content) {
    if (b.type === 'text') out += (out ? '\n' : '') + b.text.slice(0, MAX_RESULT_TEXT + 1);
    if (out.length > MAX_RESULT_TEXT) break;
  }
  return out;
}

function textOf(m: MessageItem): string {
  let out = '';
  for (const b of m.content) if (b.type === 'text') out += (out ? '\n' : '') + b.text;
  return out.trim();
}

function docsOfMessage(m: MessageItem, at: number, state: LineState): SearchDoc[] {
  const model = m.model ?? state.model;
  const failed = m.status === 'error';
  if (m.role === 'user') {
    if (m.origin === 'tool_results') {
      const out: SearchDoc[] = [];
      for (const b of m.content) {
        if (b.type !== 'tool_result') continue;
        const text = clip(resultText(b.content), MAX_RESULT_TEXT).trim();
        if (text === '') continue;
        out.push({
          itemId: m.id,
          toolUseId: b.tool_use_id,
          kind: 'tool_result',
          at,
          model,
          isError: b.is_error === true,
          text,
        });
      }
      return out;
    }
    // Nudges, summaries and recalled memories are the harness talking, not the conversation.
    if (m.origin !== undefined && m.origin !== 'user') return [];
    const text = textOf(m);
    if (text === '') return [];
    state.firstPrompt ??= text.replace(/\s+/g, ' ').slice(0, 200);
    return [
      { itemId: m.id, toolUseId: null, kind: 'user', at, model, isError: false, text: clip(text, MAX_TEXT) },
    ];
  }
  const out: SearchDoc[] = [];
  const text = textOf(m);
  if (text !== '')
    out.push({
      itemId: m.id,
      toolUseId: null,
      kind: 'assistant',
      at,
      model,
      isError: failed,
      text: clip(text, MAX_TEXT),
    });
  for (const b of m.content)
    if (b.type === 'tool_use')
      out.push({
        itemId: m.id,
        toolUseId: b.id,
        kind: 'tool_call',
        at,
        model,
        isError: failed,
        text: toolCallText(b.name, b.input),
      });
  return out;
}

/**
 * The documents of one JSONL line (none for a line that holds nothing searchable). Updates `state`
 * with what later lines need (the session's model) and what the results show (its title). Throws on
 * a line that is not JSON; a line of an unknown shape yields nothing.
 */
export function docsOfLine(line: string, state: LineState): SearchDoc[] {
  const json: unknown = JSON.parse(line);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return [];
  const o = json as Record<string, unknown>;
  switch (o['type']) {
    case 'session':
      if (typeof o['model'] === 'string') state.model = o['model'];
      if (typeof o['sessionId'] === 'string') state.sessionId = o['sessionId'];
      if (typeof o['projectPath'] === 'string') state.projectPath = o['projectPath'];
      if (o['agent'] !== undefined) state.agent = agentOfLine(o['agent']);
      return [];
    case 'model':
      if (typeof o['model'] === 'string') state.model = o['model'];
      return [];
    case 'title':
      if (typeof o['title'] === 'string' && o['title'].trim() !== '')
        state.title = o['title'].trim().slice(0, 200);
      return [];
    case 'item': {
      const parsed = TranscriptItem.safeParse(o['item']);
      if (!parsed.success) return [];
      const item = parsed.data;
      const at = Date.parse(item.createdAt);
      if (Number.isNaN(at)) return [];
      if (item.kind === 'notice') {
        // Only failures are worth finding again ("what was that error?"); routine notes are not.
        if (item.level !== 'error') return [];
        return [
          {
            itemId: item.id,
            toolUseId: null,
            kind: 'notice',
            at,
            model: state.model,
            isError: true,
            text: clip(item.text, MAX_TEXT),
          },
        ];
      }
      return docsOfMessage(item, at, state);
    }
    default:
      return [];
  }
}
