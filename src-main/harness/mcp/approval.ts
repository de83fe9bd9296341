import path from 'node:path';
import { localSettingsFile } from '../permissions/settings-sources';
import { trustKey, type TrustLookup } from '../permissions/trust';
import { PROJECT_MCP_FILE, readJsonConfig } from './config';

/**
 * Which of the project's `.mcp.json` servers may start. The project's files are written by whoever
 * wrote the repository, so what they say can only count once a person accepted it:
 * - the user's settings (`~/.carapace/settings.json`) and the managed policy always count;
 * - `.claude/settings.local.json` and `.claude/settings.json` sit in the repository (a hostile one can
 *   commit both): their `enableAllProjectMcpServers` / `enabledMcpjsonServers` approve nothing by
 *   themselves. A server counts once the person accepted it in the workspace-trust prompt, which
 *   lists each by its entry as written: a switch accepted by name would carry over to an entry a
 *   later pull rewrote (`NODE_OPTIONS` added, the command swapped), which must be asked about again;
 * - `disabledMcpjsonServers` only narrows, so it counts from any of them, and wins.
 */
export interface ApprovalSources {
  projectRoot: string;
  /** `~/.carapace` (or CARAPACE_HOME): its settings.json is the user's. */
  carapaceHome: string;
  policyFile?: string;
  trust?: TrustLookup;
  onProblem?: (message: string) => void;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

interface McpKeys {
  enableAll: boolean;
  enabled: string[];
  disabled: string[];
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

function keysOf(file: string, onProblem?: (message: string) => void): McpKeys {
  const read = readJsonConfig(file);
  if (read.kind === 'bad') onProblem?.(`${read.problem}; its MCP approvals are not used`);
  const data =
    read.kind === 'ok' && typeof read.value === 'object' && read.value !== null
      ? (read.value as Record<string, unknown>)
      : {};
  return {
    enableAll: data['enableAllProjectMcpServers'] === true,
    enabled: strings(data['enabledMcpjsonServers']),
    disabled: strings(data['disabledMcpjsonServers']),
  };
}

export interface ProjectApproval {
  /** May this `.mcp.json` server start? */
  approve: (name: string) => boolean;
  /** Switched off by `disabledMcpjsonServers` (from any settings file: it only narrows). */
  disabled: (name: string) => boolean;
}

export function projectServerApproval(s: ApprovalSources): ProjectApproval {
  const personal = [path.join(s.carapaceHome, 'settings.json'), ...(s.policyFile ? [s.policyFile] : [])].map(
    (f) => keysOf(f, s.onProblem),
  );
  const projectFiles = [
    localSettingsFile(s.projectRoot),
    path.join(s.projectRoot, '.claude', 'settings.json'),
  ].map((f) => keysOf(f, s.onProblem));
  // The servers as written: the trust prompt accepted each by its whole entry (a changed entry asks again).
  const mcp = readJsonConfig(path.join(s.projectRoot, PROJECT_MCP_FILE));
  const written =
    mcp.kind === 'ok' && isObject(mcp.value) && isObject(mcp.value['mcpServers'])
      ? mcp.value['mcpServers']
      : {};
  const accepted = s.trust?.accepted(s.projectRoot) ?? new Set<string>();
  const disabled = new Set([...personal, ...projectFiles].flatMap((k) => k.disabled));
  const enableAll = personal.some((k) => k.enableAll);
  const enabled = new Set(personal.flatMap((k) => k.enabled));
  const approve = (name: string) => {
    if (disabled.has(name)) return false;
    if (enableAll || enabled.has(name)) return true;
    return Object.hasOwn(written, name) && accepted.has(trustKey.mcpServer(name, written[name]));
  };
  return { approve, disabled: (name) => disabled.has(name) };
}
