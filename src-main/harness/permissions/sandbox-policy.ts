import path from 'node:path';
import { pathRuleGlobs } from './path-rules';
import { carapaceHomeDenials, sandboxWriteDenials } from './protected-paths';
import { loadPermissionSources, type PermissionSources, type SourceLocations } from './settings-sources';
import { secretPaths, type SandboxService } from '../bash/sandbox';
import { SessionShell, type ShellPolicy } from '../bash/shell-executor';

/**
 * A session's own temp folder, writable inside the sandbox (commands get it as TMPDIR). Inside the
 * session folder, which the user owns: a fixed name in the shared /tmp could be planted by another
 * local user (a symlink to somewhere the sandbox would then let commands write).
 */
export function sessionTempDir(sessionDir: string): string {
  return path.join(sessionDir, 'tmp');
}

/** The WebFetch domains the rules allow: the sandbox's proxy admits them too. */
function ruleDomains(sources: PermissionSources): string[] {
  return sources.rules.flatMap((r) =>
    r.behavior === 'allow' && r.tool === 'WebFetch' && r.specifier?.startsWith('domain:')
      ? [r.specifier.slice('domain:'.length)]
      : [],
  );
}

/**
 * What the sandbox allows a session's commands, from its settings: writes to the project, its temp
 * folder (and the session folder, added by the shell); no reads of secrets, `.env*` files or what a
 * Read deny rule names; network only to `sandbox.network.allowedDomains` and WebFetch-allowed domains.
 */
export function shellPolicy(
  sources: PermissionSources,
  o: { projectRoot: string; home: string; tempDir: string; carapaceHome?: string },
): ShellPolicy {
  const readDenied = sources.rules.flatMap((r) => {
    if (r.behavior !== 'deny' || r.tool !== 'Read') return [];
    return pathRuleGlobs(r, o.projectRoot, o.home);
  });
  const roots = [o.projectRoot];
  return {
    sandboxed: sources.sandbox.enabled,
    excludedCommands: sources.sandbox.excludedCommands,
    writable: [o.projectRoot, o.tempDir],
    // From the project root, not the process's working directory: the runtime's own mandatory denies
    // follow process.cwd(), which in the app and serve mode is not the project.
    denyWrite: sources.sandbox.enabled
      ? [...sandboxWriteDenials(roots), ...carapaceHomeDenials(o.carapaceHome, roots)]
      : [],
    guardRoots: roots,
    quarantineDir: path.join(path.dirname(o.tempDir), 'quarantine'),
    denyRead: [...secretPaths(o.home, o.projectRoot), ...readDenied],
    allowedDomains: [...new Set([...sources.sandbox.allowedDomains, ...ruleDomains(sources)])],
    tempDir: o.tempDir,
  };
}

export interface SessionShellSetup {
  sessionDir: string;
  locations: SourceLocations;
  home: string;
  env: NodeJS.ProcessEnv;
  sandbox: SandboxService | null;
}

/** The shell a session's Bash commands run in, its policy re-read from the settings for every command. */
export function createSessionShell(o: SessionShellSetup): SessionShell {
  const tempDir = sessionTempDir(o.sessionDir);
  return new SessionShell({
    env: o.env,
    sandbox: o.sandbox,
    policy: () =>
      shellPolicy(loadPermissionSources(o.locations), {
        projectRoot: o.locations.projectRoot,
        home: o.home,
        tempDir,
        carapaceHome: o.locations.home,
      }),
  });
}
