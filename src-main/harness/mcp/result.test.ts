import { describe, expect, it } from 'vitest';
import { cutBlocks, DEFAULT_MAX_MCP_OUTPUT_TOKENS, mcpOutputLimit, toToolOutput } from './result';

const PNG = 'iVBORw0KGgo=';

describe('MCP tool results', () => {
  it('keeps plain text as a string, and marks an error result', () => {
    expect(toToolOutput({ content: [{ type: 'text', text: 'hi' }] }, 100)).toEqual({ content: 'hi' });
    expect(toToolOutput({ content: [{ type: 'text', text: 'bad' }], isError: true }, 100)).toEqual({
      content: 'bad',
      isError: true,
    });
    expect(toToolOutput({ content: [], structuredContent: { a: 1 } }, 100)).toEqual({ content: '{"a":1}' });
    expect(toToolOutput({}, 100)).toEqual({ content: '(no content)' });
  });

  it('passes images the API takes, and describes what it cannot show', () => {
    const out = toToolOutput(
      {
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'image', data: PNG, mimeType: 'image/tiff' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
          { type: 'resource', resource: { uri: 'mem://x', text: 'inside' } },
          { type: 'resource', resource: { uri: 'mem://bin', blob: 'AAAA', mimeType: 'application/zip' } },
          { type: 'hologram' },
        ],
      },
      10_000,
    );
    expect(out.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'text', text: '[image of type image/tiff not shown]' },
      { type: 'text', text: '[audio (audio/wav) not shown]' },
      { type: 'text', text: '[Resource link: a.txt file:///a.txt (text/plain)]' },
      { type: 'text', text: '[Resource mem://x]\ninside' },
      { type: 'text', text: '[Resource mem://bin: binary application/zip, 4 base64 characters, not shown]' },
      { type: 'text', text: '[hologram content not shown]' },
    ]);
  });

  it('cuts past the limit, drops the blocks after, and says how much was left out', () => {
    const out = cutBlocks(
      [
        { type: 'text', text: 'a'.repeat(60) },
        { type: 'text', text: 'b'.repeat(60) },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ],
      100,
    );
    expect(out.slice(0, 2)).toEqual([
      { type: 'text', text: 'a'.repeat(60) },
      { type: 'text', text: 'b'.repeat(40) },
    ]);
    expect(out).toHaveLength(3);
    const note = out[2];
    expect(note?.type === 'text' && note.text).toMatch(
      /cut: 132 characters is more than the limit of 100.*32 characters left out/,
    );
    // Within the limit nothing changes.
    const small = [{ type: 'text' as const, text: 'ok' }];
    expect(cutBlocks(small, 2)).toBe(small);
  });

  it('reads the limit from MAX_MCP_OUTPUT_TOKENS, ignoring nonsense', () => {
    expect(mcpOutputLimit({})).toBe(DEFAULT_MAX_MCP_OUTPUT_TOKENS * 4);
    expect(mcpOutputLimit({ MAX_MCP_OUTPUT_TOKENS: '10' })).toBe(40);
    for (const bad of ['0', '-5', '1.5', 'lots', ''])
      expect(mcpOutputLimit({ MAX_MCP_OUTPUT_TOKENS: bad })).toBe(DEFAULT_MAX_MCP_OUTPUT_TOKENS * 4);
  });

  it('an image too large for the API is described instead of sent', () => {
    const huge = 'A'.repeat(8 * 1024 * 1024);
    const out = toToolOutput({ content: [{ type: 'image', data: huge, mimeType: 'image/png' }] }, Infinity);
    expect(out.content).toMatch(/too large to show/);
  });
});
