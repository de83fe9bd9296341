import path from 'node:path';
import { readJsonObject } from '../harness/permissions/settings-file';
import type { SourceLocations } from '../harness/permissions/settings-sources';
import { projectServerApproval } from '../harness/mcp/approval';
import type { McpScope } from '../harness/mcp/types';
import { PROJECT_MCP_FILE } from '../harness/permissions/trust';

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
   * Switched off: a `.mcp.json` server by `disabledMcpjsonServers` (any settings file: it only
   * narrows), any other by Carapace's own `disabledMcpServers` in the user settings.
   */
  isDisabled(name: string, scope: McpScope): boolean;
  /** Everything the two answers depend on, so a change (trust given, a switch) can be noticed. */
  fingerprint(): string;
}

/**
 * Reads the files afresh on every question: trust given in the window applies at once. Approval is
 * the harness's own rule (harness/mcp/approval.ts, as `-p` applies it); this adds the switches.
 */
export function mcpApproval(loc: SourceLocations): McpApproval {
  const root = loc.projectRoot;
  const facts = () => {
    const configs = projectServerConfigs(root);
    const project = projectServerApproval({
      projectRoot: root,
      carapaceHome: loc.home,
      policyFile: loc.policyFile,
      ...(loc.trust ? { trust: loc.trust } : {}),
    });
    const ownSwitch = strings(readObject(userSettingsFile(loc))[USER_DISABLED_KEY]);
    return { configs, project, ownSwitch };
  };
  const disabledWith = (f: ReturnType<typeof facts>, name: string, scope: McpScope) =>
    scope === 'project' ? f.project.disabled(name) : f.ownSwitch.includes(name);
  return {
    // A switched-off server is not approved either; the manager shows it as disabled.
    approve: (name) => facts().project.approve(name),
    isDisabled: (name, scope) => disabledWith(facts(), name, scope),
    fingerprint: () => {
      const f = facts();
      const names = Object.keys(f.configs).sort();
      return JSON.stringify([
        f.configs,
        names.filter((n) => f.project.approve(n)),
        names.filter((n) => f.project.disabled(n)),
        f.ownSwitch,
      ]);
    },
  };
}
