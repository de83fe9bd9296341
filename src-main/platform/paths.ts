import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';

/** Root of user-level data: `$CARAPACE_HOME`, else `~/.carapace`. */
export function carapaceHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['CARAPACE_HOME'];
  return override && override.length > 0 ? path.resolve(override) : path.join(homedir(), '.carapace');
}

const MAX_SLUG = 180;

/**
 * The folder name for a project, as Claude Code forms it: every character that is not a letter or
 * digit becomes `-`, so `/home/a/my.app` is `-home-a-my-app`. Very long paths keep their tail and
 * gain a hash, so two deep projects never share a folder and no name exceeds file-system limits.
 */
export function projectSlug(projectPath: string): string {
  const slug = path.resolve(projectPath).replace(/[^a-zA-Z0-9]/g, '-');
  if (slug.length <= MAX_SLUG) return slug;
  const hash = createHash('sha256').update(projectPath).digest('hex').slice(0, 12);
  return `${slug.slice(0, MAX_SLUG - 13)}-${hash}`;
}

/** The managed (policy) settings file: `CARAPACE_MANAGED_SETTINGS`, else /etc/carapace/managed-settings.json. */
export function managedSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['CARAPACE_MANAGED_SETTINGS'];
  return override && override.length > 0 ? path.resolve(override) : '/etc/carapace/managed-settings.json';
}

export interface DataPaths {
  home: string;
  settingsFile: string;
  stateFile: string;
  secretsFile: string;
  projectsDir: string;
  projectDir(slug: string): string;
}

export function dataPaths(home: string): DataPaths {
  const projectsDir = path.join(home, 'projects');
  return {
    home,
    settingsFile: path.join(home, 'settings.json'),
    stateFile: path.join(home, 'state.json'),
    secretsFile: path.join(home, 'secrets.json'),
    projectsDir,
    projectDir: (slug) => path.join(projectsDir, slug),
  };
}
