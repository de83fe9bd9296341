import path from 'node:path';
import { readJsonObject } from '../harness/permissions/settings-file';
import { localSettingsFile, type SourceLocations } from '../harness/permissions/settings-sources';
import { PROJECT_MCP_FILE, trustKey } from '../harness/permissions/trust';

/**
 * Which MCP servers of a project may start in the app, and which the person switched off.
 *
 * A project's `.mcp.json` is the repository's to write, so its servers start only when the person
 * approved them: in their own settings (Carapace's user settings: `enableAllProjectMcpServers`,
 * `enabledMcpjsonServers`), or through the workspace trust prompt, which lists each server with its
 * configuration (accepting it accepts that exact configuration: an edited entry is asked about again).
 * `.claude/settings.local.json` can be committed by a repository too, so its approvals count only as
 * far as the folder's trust accepted them. Switching off (`disabledMcpjsonServers`) only restricts,
 * so it applies from any of the person's files, trusted or not.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function readObject(file: string): Record<string, unknown> {
  const read = readJsonObject(file);
  return read.kind === 'ok' ? read.value : {};
}

export const userSettingsFile = (loc: SourceLocations) => path.join(loc.home, 'settings.json');

/** The `.mcp.json` entries as written (the trust keys are computed from exactly these values). */
export function projectServerConfigs(projectRoot: string): Record<string, unknown> {
  const servers = readObject(path.join(projectRoot, PROJECT_MCP_FILE))['mcpServers'];
  return isObject(servers) ? servers : {};
}

/** Carapace's own switch for servers that are not the project's: `disabledMcpServers` in user settings. */
export const USER_DISABLED_KEY = 'disabledMcpServers';
export const PROJECT_DISABLED_KEY = 'disabledMcpjsonServers';

export interface McpApproval {
  approve(name: string): boolean;
  /**
   * Switched off: a project server by `disabledMcpjsonServers` (user or local settings), any server by
   * Carapace's `disabledMcpServers`. By name: the manager keeps one server per name.
   */
  isDisabled(name: string): boolean;
  /** Everything the two answers depend on, so a change (trust given, a switch) can be noticed. */
  fingerprint(): string;
}

/** Reads the files afresh on every question: trust given in the window applies at once. */
export function mcpApproval(loc: SourceLocations): McpApproval {
  const root = loc.projectRoot;
  const facts = () => {
    const user = readObject(userSettingsFile(loc));
    const local = readObject(localSettingsFile(root));
    const accepted = loc.trust?.accepted(root) ?? new Set<string>();
    return { user, local, accepted, configs: projectServerConfigs(root) };
  };
  const approveWith = (f: ReturnType<typeof facts>, name: string): boolean => {
    if (f.user['enableAllProjectMcpServers'] === true) return true;
    if (strings(f.user['enabledMcpjsonServers']).includes(name)) return true;
    if (f.local['enableAllProjectMcpServers'] === true && f.accepted.has(trustKey.mcpEnableAll)) return true;
    if (strings(f.local['enabledMcpjsonServers']).includes(name) && f.accepted.has(trustKey.mcpEnabled(name)))
      return true;
    const config = f.configs[name];
    return config !== undefined && f.accepted.has(trustKey.mcpServer(name, config));
  };
  const disabledWith = (f: ReturnType<typeof facts>, name: string): boolean =>
    [f.user[PROJECT_DISABLED_KEY], f.local[PROJECT_DISABLED_KEY], f.user[USER_DISABLED_KEY]].some((list) =>
      strings(list).includes(name),
    );
  return {
    approve: (name) => approveWith(facts(), name),
    isDisabled: (name) => disabledWith(facts(), name),
    fingerprint: () => {
      const f = facts();
      const names = Object.keys(f.configs).sort();
      return JSON.stringify([
        f.configs,
        names.filter((n) => approveWith(f, n)),
        strings(f.user[PROJECT_DISABLED_KEY]),
        strings(f.local[PROJECT_DISABLED_KEY]),
        strings(f.user[USER_DISABLED_KEY]),
      ]);
    },
  };
}
