import { onTestFinished } from 'vitest';
import { createMcpManager } from '../harness/mcp/manager';
import type { McpManagerOptions } from '../harness/mcp/types';

/**
 * A real MCP manager for a test's project and home, with this PATH, project servers approved unless
 * `options` says otherwise, and its problems collected. Closed when the test ends; not started.
 */
export function testMcpManager(
  projectRoot: string,
  homeDir: string,
  options: Partial<McpManagerOptions> = {},
) {
  const problems: string[] = [];
  const manager = createMcpManager({
    projectRoot,
    homeDir,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    approveProjectServer: () => true,
    onProblem: (m) => problems.push(m),
    ...options,
  });
  onTestFinished(() => manager.close());
  return { manager, problems };
}
