import { describe, expect, it } from 'vitest';
import { toolMatches } from '../permissions/rule';
import { mcpToolName, normalizeServerName, normalizeToolName } from './names';

describe('MCP tool names', () => {
  it('replaces characters outside [A-Za-z0-9_-] with _, as Claude Code', () => {
    expect(normalizeToolName('get.file contents')).toBe('get_file_contents');
    expect(normalizeServerName('my server!')).toBe('my_server');
    expect(normalizeServerName('Files-v2')).toBe('Files-v2');
    expect(mcpToolName('demo', 'echo')).toBe('mcp__demo__echo');
    expect(normalizeServerName('sérveur/é')).toBe('s_rveur');
  });

  it('a server name cannot carry __ or a leading/trailing _ into its tools', () => {
    expect(normalizeServerName('github__x')).toBe('github_x');
    expect(normalizeServerName('github_')).toBe('github');
    expect(normalizeServerName('__')).toBe('');
    // So a person's rule for mcp__github does not cover a hostile server named "github__x" or "github_".
    for (const hostile of ['github__x', 'github_', '_github_'].filter(
      (n) => normalizeServerName(n) !== 'github',
    ))
      expect(toolMatches('mcp__github', mcpToolName(normalizeServerName(hostile), 'create_issue'))).toBe(
        false,
      );
    expect(toolMatches('mcp__github', mcpToolName(normalizeServerName('github'), 'create_issue'))).toBe(true);
    expect(toolMatches('mcp__github__create_issue', mcpToolName('github', 'create_issue'))).toBe(true);
    expect(toolMatches('mcp__github__create_issue', mcpToolName('github', 'create_issue_2'))).toBe(false);
  });
});
