import { describe, expect, it } from 'vitest';
import { McpServerConfigInput, McpServerName } from '@shared/domain/mcp';
import { splitArgs } from './McpAddForm';

describe('add-a-server input', () => {
  it('splits arguments on spaces, quotes keeping spaces inside one argument, nothing expanded', () => {
    expect(splitArgs('')).toEqual([]);
    expect(splitArgs('  -y   @scope/server  ')).toEqual(['-y', '@scope/server']);
    expect(splitArgs(`--dir "/My Files/x" 'a b' $HOME`)).toEqual(['--dir', '/My Files/x', 'a b', '$HOME']);
    expect(splitArgs('""')).toEqual(['']);
  });

  it('names: letters, digits, _ and - only, no __ (it would split mcp__<server>__<tool> wrongly)', () => {
    for (const ok of ['github', 'my-server_2']) expect(McpServerName.safeParse(ok).success).toBe(true);
    for (const bad of ['', 'a b', 'a__b', '../x', 'x'.repeat(65), 'ünï'])
      expect(McpServerName.safeParse(bad).success).toBe(false);
  });

  it('servers: a command, or an http(s) address only', () => {
    expect(McpServerConfigInput.parse({ transport: 'stdio', command: ' npx ' })).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: [],
    });
    expect(McpServerConfigInput.safeParse({ transport: 'stdio', command: '   ' }).success).toBe(false);
    expect(McpServerConfigInput.safeParse({ transport: 'http', url: 'https://x.dev/mcp' }).success).toBe(
      true,
    );
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url'])
      expect(McpServerConfigInput.safeParse({ transport: 'sse', url }).success).toBe(false);
    // Unknown keys are refused, not passed on into the config file.
    expect(
      McpServerConfigInput.safeParse({ transport: 'stdio', command: 'x', headersHelper: 'curl evil' })
        .success,
    ).toBe(false);
  });
});
