import type { ImageBlock, TextBlock } from '@shared/domain/messages';
import type { ToolOutput } from '../tools/tool';

/**
 * An MCP tool's result (text, images, audio, resource links, embedded resources) as the blocks the
 * model reads, cut past a size limit with a note saying so, as Claude Code does: a server can return
 * anything, and a 50 MB answer must not become a 50 MB request.
 */

/** Claude Code's default for MAX_MCP_OUTPUT_TOKENS, at about four characters a token. */
export const DEFAULT_MAX_MCP_OUTPUT_TOKENS = 25_000;
const CHARS_PER_TOKEN = 4;
/** The API refuses images over 5 MB; base64 is 4/3 of that. */
const MAX_IMAGE_BASE64 = Math.floor((5 * 1024 * 1024 * 4) / 3);
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The limit in characters: MAX_MCP_OUTPUT_TOKENS (a positive whole number), else the default. */
export function mcpOutputLimit(env: NodeJS.ProcessEnv): number {
  const set = Number(env['MAX_MCP_OUTPUT_TOKENS']);
  const tokens = Number.isInteger(set) && set > 0 ? set : DEFAULT_MAX_MCP_OUTPUT_TOKENS;
  return tokens * CHARS_PER_TOKEN;
}

/** The parts of MCP's result types this reads; unknown block types are described, not dropped. */
export interface McpContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What an image's bytes say it is, from its first bytes. The API refuses a request whose image is
 * not valid base64 or is not what its media type says, and the result stays in every later request
 * of the session: one bad image from a server (a screenshot tool passing on a page's image with the
 * wrong type) would fail the session's every turn from then on.
 */
function sniffImage(data: string): ImageBlock['source']['media_type'] | null {
  if (data.length % 4 !== 0 || !BASE64.test(data)) return null;
  const head = Buffer.from(data.slice(0, 24), 'base64');
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

function blockOf(c: McpContent): TextBlock | ImageBlock {
  switch (c.type) {
    case 'text':
      return { type: 'text', text: c.text ?? '' };
    case 'image': {
      const mime = c.mimeType ?? '';
      const data = c.data ?? '';
      if (!IMAGE_TYPES.has(mime))
        return { type: 'text', text: `[image of type ${mime || 'unknown'} not shown]` };
      if (data.length > MAX_IMAGE_BASE64)
        return {
          type: 'text',
          text: `[image (${mime}, ${data.length} base64 characters) too large to show]`,
        };
      // Sent as what the bytes are; data that is no image the API takes is described instead.
      const actual = sniffImage(data);
      if (actual === null)
        return {
          type: 'text',
          text: `[image (${mime}) not shown: its data is not a PNG, JPEG, GIF or WebP image]`,
        };
      return { type: 'image', source: { type: 'base64', media_type: actual, data } };
    }
    case 'audio':
      return { type: 'text', text: `[audio (${c.mimeType ?? 'unknown type'}) not shown]` };
    case 'resource_link': {
      const about = [c.mimeType, c.description].filter(Boolean).join('; ');
      return {
        type: 'text',
        text: `[Resource link: ${c.name ?? c.uri ?? ''} ${c.uri ?? ''}${about ? ` (${about})` : ''}]`,
      };
    }
    case 'resource': {
      const r = c.resource ?? {};
      if (typeof r.text === 'string') return { type: 'text', text: `[Resource ${r.uri ?? ''}]\n${r.text}` };
      return {
        type: 'text',
        text: `[Resource ${r.uri ?? ''}: binary ${r.mimeType ?? 'data'}, ${r.blob?.length ?? 0} base64 characters, not shown]`,
      };
    }
    default:
      return { type: 'text', text: `[${c.type} content not shown]` };
  }
}

/**
 * Cuts text past `limit` characters in all (images count by their base64 length): the rest of the
 * block is dropped and so are the blocks after it, and a note says how much was left out.
 */
export function cutBlocks(blocks: (TextBlock | ImageBlock)[], limit: number): (TextBlock | ImageBlock)[] {
  const total = blocks.reduce((n, b) => n + (b.type === 'text' ? b.text.length : b.source.data.length), 0);
  if (total <= limit) return blocks;
  const out: (TextBlock | ImageBlock)[] = [];
  let left = limit;
  for (const b of blocks) {
    const size = b.type === 'text' ? b.text.length : b.source.data.length;
    if (size <= left) {
      out.push(b);
      left -= size;
      continue;
    }
    if (b.type === 'text' && left > 0) out.push({ type: 'text', text: b.text.slice(0, left) });
    break;
  }
  out.push({
    type: 'text',
    text: `\n[MCP tool output cut: ${total} characters is more than the limit of ${limit} (MAX_MCP_OUTPUT_TOKENS=${limit / CHARS_PER_TOKEN}); ${total - limit} characters left out. Ask for less, e.g. a page or a filter, if the tool offers one.]`,
  });
  return out;
}

export function toToolOutput(result: McpCallResult, limit: number): ToolOutput {
  let blocks = (result.content ?? []).map(blockOf);
  if (blocks.length === 0 && result.structuredContent !== undefined)
    blocks = [{ type: 'text', text: JSON.stringify(result.structuredContent) }];
  if (blocks.length === 0) blocks = [{ type: 'text', text: '(no content)' }];
  const content = cutBlocks(blocks, limit);
  const isError = result.isError === true;
  // Plain text stays a string, as the built-in tools give it.
  const allText = content.every((b) => b.type === 'text');
  return {
    content: allText ? content.map((b) => b.text).join('\n') : content,
    ...(isError ? { isError } : {}),
  };
}
