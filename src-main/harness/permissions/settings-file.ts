import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { PermissionMode } from '@shared/domain/permissions';
import { errnoCode } from '../../platform/errors';

/**
 * One Claude Code settings file, read key by key: a wrong-typed key (or one bad entry in a list) is
 * reported and skipped, and everything else in the file still applies. A single type error must not
 * throw away a file's deny rules — a managed policy with `"model": 5` in it is still a policy.
 */
export interface ParsedSettings {
  allow: string[];
  deny: string[];
  ask: string[];
  defaultMode: PermissionMode | undefined;
  additionalDirectories: string[];
  sandbox: {
    enabled: boolean | undefined;
    autoAllowBashIfSandboxed: boolean | undefined;
    excludedCommands: string[];
    allowedDomains: string[];
  };
  /** `hooks`: one entry per command, as `{event, matcher, command}`, with the handler object as written. */
  hooks: { event: string; matcher: string; command: string; handler: unknown }[];
  /** `mcpServers` in a settings file or `.mcp.json`: name → its configuration. */
  mcpServers: Record<string, unknown>;
  enabledMcpjsonServers: string[];
  enableAllProjectMcpServers: boolean;
  env: Record<string, string>;
  apiKeyHelper: string | undefined;
  /** `enabledPlugins`: `"name@marketplace"` → on or off (Carapace's own installs are `name@local`). */
  enabledPlugins: Record<string, boolean>;
}

export type SettingsRead =
  | { kind: 'missing' }
  /** The file exists but could not be read or is not a JSON object: nothing in it can be used. */
  | { kind: 'unreadable'; problem: string }
  | { kind: 'ok'; settings: ParsedSettings; problems: string[] };

export function emptySettings(): ParsedSettings {
  return {
    allow: [],
    deny: [],
    ask: [],
    defaultMode: undefined,
    additionalDirectories: [],
    sandbox: {
      enabled: undefined,
      autoAllowBashIfSandboxed: undefined,
      excludedCommands: [],
      allowedDomains: [],
    },
    hooks: [],
    mcpServers: {},
    enabledMcpjsonServers: [],
    enableAllProjectMcpServers: false,
    env: {},
    apiKeyHelper: undefined,
    enabledPlugins: {},
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A settings file bigger than this is refused unread (a repository can ship a 2 GB `.mcp.json`). */
const MAX_SETTINGS_BYTES = 10 * 1024 * 1024;
/** Windows has no O_NONBLOCK (and no FIFOs to fear there). */
const NONBLOCK = (constants as Partial<Record<string, number>>)['O_NONBLOCK'] ?? 0;

/**
 * A regular file's text. Opened without blocking and checked before reading: a repository's
 * `.mcp.json` or `.claude/settings.json` that is a FIFO or a device would otherwise hang the main
 * process (the trust prompt, every MCP and hook question read these files).
 */
function readRegularFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('it is not a regular file');
    if (stat.size > MAX_SETTINGS_BYTES)
      throw new Error(`it is ${stat.size} bytes, over the ${MAX_SETTINGS_BYTES} byte limit`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Reads a file as a JSON object; a missing file is an answer, anything else wrong is a problem. */
export function readJsonObject(
  file: string,
):
  | { kind: 'missing' }
  | { kind: 'unreadable'; problem: string }
  | { kind: 'ok'; value: Record<string, unknown> } {
  let text: string;
  try {
    text = readRegularFile(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', problem: `${file} could not be read: ${(error as Error).message}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { kind: 'unreadable', problem: `${file} is not valid JSON: ${(error as Error).message}` };
  }
  if (!isObject(data)) return { kind: 'unreadable', problem: `${file} is not a JSON object` };
  return { kind: 'ok', value: data };
}

/** Parses the keys the harness understands out of a settings object; `file` names it in problems. */
export function parseSettings(
  data: Record<string, unknown>,
  file: string,
): { settings: ParsedSettings; problems: string[] } {
  const settings = emptySettings();
  const problems: string[] = [];
  const bad = (key: string, want: string) =>
    problems.push(`${file}: "${key}" should be ${want}; it is ignored`);

  /**
   * A list of strings: each wrong entry is reported alone. A lone string where a list belongs is read
   * as one entry only where that restricts (deny, ask): a misspelt restriction still restricts, a
   * misspelt grant grants nothing.
   */
  const strings = (value: unknown, key: string, loneStringOk = false): string[] => {
    if (value === undefined) return [];
    if (typeof value === 'string' && loneStringOk) {
      problems.push(`${file}: "${key}" should be a list; read as the one rule "${value}"`);
      return [value];
    }
    if (!Array.isArray(value)) {
      bad(key, 'a list of strings');
      return [];
    }
    return value.flatMap((v, i) => {
      if (typeof v === 'string') return [v];
      problems.push(`${file}: ${key}[${i}] is not a string; it is ignored`);
      return [];
    });
  };
  const boolean = (value: unknown, key: string): boolean | undefined => {
    if (value === undefined || typeof value === 'boolean') return value;
    bad(key, 'true or false');
    return undefined;
  };

  const p = data['permissions'];
  if (p !== undefined && !isObject(p)) bad('permissions', 'an object');
  if (isObject(p)) {
    settings.deny = strings(p['deny'], 'permissions.deny', true);
    settings.ask = strings(p['ask'], 'permissions.ask', true);
    settings.allow = strings(p['allow'], 'permissions.allow');
    settings.additionalDirectories = strings(p['additionalDirectories'], 'permissions.additionalDirectories');
    if (p['defaultMode'] !== undefined) {
      const mode = PermissionMode.safeParse(p['defaultMode']);
      if (mode.success) settings.defaultMode = mode.data;
      else bad('permissions.defaultMode', `one of ${PermissionMode.options.join(', ')}`);
    }
  }

  const s = data['sandbox'];
  if (s !== undefined && !isObject(s)) bad('sandbox', 'an object');
  if (isObject(s)) {
    settings.sandbox.enabled = boolean(s['enabled'], 'sandbox.enabled');
    settings.sandbox.autoAllowBashIfSandboxed = boolean(
      s['autoAllowBashIfSandboxed'],
      'sandbox.autoAllowBashIfSandboxed',
    );
    settings.sandbox.excludedCommands = strings(s['excludedCommands'], 'sandbox.excludedCommands');
    const n = s['network'];
    if (n !== undefined && !isObject(n)) bad('sandbox.network', 'an object');
    if (isObject(n))
      settings.sandbox.allowedDomains = strings(n['allowedDomains'], 'sandbox.network.allowedDomains');
  }

  settings.hooks = parseHooks(data['hooks'], file, problems);

  const servers = data['mcpServers'];
  if (servers !== undefined && !isObject(servers)) bad('mcpServers', 'an object');
  if (isObject(servers)) settings.mcpServers = { ...servers };
  settings.enabledMcpjsonServers = strings(data['enabledMcpjsonServers'], 'enabledMcpjsonServers');
  settings.enableAllProjectMcpServers =
    boolean(data['enableAllProjectMcpServers'], 'enableAllProjectMcpServers') ?? false;

  const env = data['env'];
  if (env !== undefined && !isObject(env)) bad('env', 'an object of strings');
  if (isObject(env))
    for (const [k, v] of Object.entries(env)) {
      if (typeof v === 'string') settings.env[k] = v;
      else problems.push(`${file}: env.${k} is not a string; it is ignored`);
    }

  const helper = data['apiKeyHelper'];
  if (typeof helper === 'string') settings.apiKeyHelper = helper;
  else if (helper !== undefined) bad('apiKeyHelper', 'a string');

  const plugins = data['enabledPlugins'];
  if (plugins !== undefined && !isObject(plugins)) bad('enabledPlugins', 'an object of true or false');
  if (isObject(plugins))
    for (const [id, on] of Object.entries(plugins)) {
      // Claude Code's older list form (versions) is not one Carapace can honour; `__proto__` no key.
      if (typeof on === 'boolean' && id !== '__proto__') settings.enabledPlugins[id] = on;
      else
        problems.push(
          `${file}: enabledPlugins ${JSON.stringify(id.slice(0, 100))} is not true or false; it is ignored`,
        );
    }

  return { settings, problems };
}

/**
 * Claude Code's hooks: `{Event: [{matcher, hooks: [{type: 'command', command}]}]}`. Anything in a
 * shape we do not know is still listed (as its JSON), so the trust prompt never hides a hook.
 */
function parseHooks(value: unknown, file: string, problems: string[]): ParsedSettings['hooks'] {
  if (value === undefined) return [];
  if (!isObject(value)) {
    problems.push(`${file}: "hooks" should be an object; it is ignored`);
    return [];
  }
  const out: ParsedSettings['hooks'] = [];
  for (const [event, groups] of Object.entries(value)) {
    for (const group of Array.isArray(groups) ? groups : [groups]) {
      const matcher = isObject(group) && typeof group['matcher'] === 'string' ? group['matcher'] : '';
      const hooks = isObject(group) && Array.isArray(group['hooks']) ? group['hooks'] : null;
      if (!hooks) {
        out.push({ event, matcher, command: JSON.stringify(group), handler: group });
        continue;
      }
      for (const h of hooks) {
        const command = isObject(h) && typeof h['command'] === 'string' ? h['command'] : JSON.stringify(h);
        out.push({ event, matcher, command, handler: h });
      }
    }
  }
  return out;
}

/** Reads and parses one settings file. */
export function readSettingsFile(file: string): SettingsRead {
  const read = readJsonObject(file);
  if (read.kind !== 'ok') return read;
  return { kind: 'ok', ...parseSettings(read.value, file) };
}
