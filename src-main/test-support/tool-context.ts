import type { PermissionMode } from '@shared/domain/permissions';
import { plainShell } from '../harness/bash/shell-executor';
import { sanitizeEnv } from '../platform/env';
import { FileHistory } from '../harness/tools/file-history';
import { ReadFileState } from '../harness/tools/read-file-state';
import type { ToolUseContext } from '../harness/tools/tool';
import { tempDir } from './temp';

/** A ToolUseContext rooted in a fresh temp project. */
export function toolContext(
  overrides: Partial<ToolUseContext> & { permissionMode?: PermissionMode } = {},
): ToolUseContext {
  const projectRoot = overrides.projectRoot ?? tempDir('carapace-tools-');
  return {
    toolUseId: 'toolu_test',
    cwd: projectRoot,
    projectRoot,
    sessionDir: tempDir('carapace-session-'),
    abortSignal: new AbortController().signal,
    permissionMode: 'bypassPermissions',
    readFileState: new ReadFileState(),
    fileHistory: new FileHistory(),
    todos: { items: [] },
    env: sanitizeEnv(process.env),
    shell: plainShell(sanitizeEnv(process.env)),
    ...overrides,
  };
}
