import path from 'node:path';
import { homedir } from 'node:os';
import type { PermissionMode } from '@shared/domain/permissions';
import type { PermissionHandler } from '../harness/permissions/handlers';
import { createSessionGate } from '../harness/permissions/session-gate';
import type { EngineGate } from '../harness/permissions/engine-gate';
import { tempDir } from './temp';

/** The real permission gate for a project, with an empty user home and no policy file. */
export function testGate(
  projectRoot: string,
  mode: PermissionMode = 'bypassPermissions',
  handler: PermissionHandler | null = null,
): EngineGate {
  const home = tempDir('carapace-gate-home-');
  return createSessionGate({
    sessionId: 'test',
    locations: { home, projectRoot, policyFile: path.join(home, 'no-policy.json') },
    mode: () => mode,
    sandboxActive: () => false,
    handler,
    home: homedir(),
  });
}
