import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { realpathNearest } from '../../platform/real-path';
import { isInside } from '../tools/paths';
import { expandVars, isModelCredential } from './expand';
import type { McpScope, McpTransportKind } from './types';

/** One server's configuration after `${VAR}` expansion, ready to connect. */
export type ServerConfig =
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { type: 'http' | 'sse'; url: string; headers: Record<string, string> };

export interface ServerEntry {
  /** The name as written in its configuration (what the UI shows and `restart` takes). */
  name: string;
  scope: McpScope;
  config: ServerConfig;
  /** Where it was configured; absent for JSON given on the command line. */
  configFile?: string;
}

export interface LoadedConfigs {
  servers: ServerEntry[];
  /** Files, servers or values that could not be used, in words; everything else still loads. */
  problems: string[];
}

export interface ConfigSources {
  projectRoot: string;
  homeDir: string;
  env: NodeJS.ProcessEnv;
  /** `--mcp-config` values: a file path or JSON text each. */
  cliConfigs?: readonly string[];
  /** `--strict-mcp-config`: only the command line's servers. */
  strict?: boolean;
}

/** A configuration file bigger than this is refused, not read into memory (a hostile repository). */
export const MAX_CONFIG_BYTES = 10 * 1024 * 1024;

export const PROJECT_MCP_FILE = '.mcp.json';
/** Claude Code's user file: top-level `mcpServers` (user scope), `projects[<root>].mcpServers` (local). */
export const userConfigFile = (homeDir: string) => path.join(homeDir, '.claude.json');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

type JsonRead = { kind: 'missing' } | { kind: 'bad'; problem: string } | { kind: 'ok'; value: unknown };

/**
 * Reads a JSON file without following it into trouble: only a regular file (a FIFO or device named
 * `.mcp.json` would block or never end), and only up to MAX_CONFIG_BYTES.
 */
export function readJsonConfig(file: string): JsonRead {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, forever.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'bad', problem: `${file} could not be read: ${(error as Error).message}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'bad', problem: `${file} is not a regular file` };
    if (stat.size > MAX_CONFIG_BYTES)
      return {
        kind: 'bad',
        problem: `${file} is ${stat.size} bytes, over the ${MAX_CONFIG_BYTES} byte limit`,
      };
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return parseJson(buffer.subarray(0, read).toString('utf8'), file);
  } catch (error) {
    return { kind: 'bad', problem: `${file} could not be read: ${(error as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

function parseJson(text: string, what: string): JsonRead {
  try {
    return { kind: 'ok', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: 'bad', problem: `${what} is not valid JSON: ${(error as Error).message}` };
  }
}

function stringRecord(
  value: unknown,
  key: string,
  where: string,
  expand: (s: string) => string,
  problems: string[],
): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    problems.push(`${where}: "${key}" must be an object of strings; ignored`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') out[k] = expand(v);
    else problems.push(`${where}: ${key}.${k} must be a string; ignored`);
  }
  return out;
}

/**
 * One entry of `mcpServers` → a usable configuration, or null with the reason in `problems`.
 * `type` defaults to stdio when there is a `command`; `ws` and unknown types are refused by name.
 */
export function parseServerConfig(
  name: string,
  raw: unknown,
  where: string,
  env: NodeJS.ProcessEnv,
  problems: string[],
  /** Variables not filled in (a project's `.mcp.json`: Carapace's own credentials). */
  withhold?: (name: string) => boolean,
): ServerConfig | null {
  const at = `${where}: MCP server "${name}"`;
  if (!isObject(raw)) {
    problems.push(`${at} must be an object; skipped`);
    return null;
  }
  const missing = new Set<string>();
  const withheld = new Set<string>();
  const expand = (s: string) => {
    const e = expandVars(s, env, withhold);
    for (const m of e.missing) missing.add(m);
    for (const m of e.withheld) withheld.add(m);
    return e.value;
  };
  const type =
    raw['type'] ?? (raw['command'] !== undefined ? 'stdio' : raw['url'] !== undefined ? 'http' : undefined);
  let config: ServerConfig | null = null;
  if (type === 'stdio') {
    const command = raw['command'];
    const args = raw['args'] ?? [];
    if (typeof command !== 'string' || command.trim() === '')
      problems.push(`${at}: "command" must be a non-empty string; skipped`);
    else if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
      problems.push(`${at}: "args" must be a list of strings; skipped`);
    else
      config = {
        type: 'stdio',
        command: expand(command),
        args: args.map(expand),
        env: stringRecord(raw['env'], 'env', at, expand, problems),
      };
  } else if (type === 'http' || type === 'sse') {
    const url = raw['url'];
    if (typeof url !== 'string') problems.push(`${at}: "url" must be a string; skipped`);
    else {
      const expanded = expand(url);
      const parsed = URL.canParse(expanded) ? new URL(expanded) : null;
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
        problems.push(`${at}: "${expanded}" is not an http(s) URL; skipped`);
      else
        config = {
          type,
          url: expanded,
          headers: stringRecord(raw['headers'], 'headers', at, expand, problems),
        };
    }
  } else
    problems.push(
      `${at}: transport ${JSON.stringify(type ?? null)} is not supported (stdio, http or sse); skipped`,
    );
  if (config && missing.size > 0)
    problems.push(`${at}: ${[...missing].map((m) => `\${${m}}`).join(', ')} not set; left as written`);
  if (config && withheld.size > 0)
    problems.push(
      `${at}: ${[...withheld].map((m) => `\${${m}}`).join(', ')} left as written: Carapace's own credentials are not filled into a project's server`,
    );
  return config;
}

/** The `mcpServers` object of one parsed source → entries of one scope. */
function entriesOf(
  servers: unknown,
  scope: McpScope,
  where: string,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
  problems: string[],
): ServerEntry[] {
  if (servers === undefined) return [];
  if (!isObject(servers)) {
    problems.push(`${where}: "mcpServers" must be an object; ignored`);
    return [];
  }
  const out: ServerEntry[] = [];
  // The repository wrote `.mcp.json`: the person's model credentials are not its to name.
  const withhold = scope === 'project' ? isModelCredential : undefined;
  for (const [name, raw] of Object.entries(servers)) {
    const config = parseServerConfig(name, raw, where, env, problems, withhold);
    if (config) out.push({ name, scope, config, ...(file !== undefined ? { configFile: file } : {}) });
  }
  return out;
}

function fromFile(file: string, problems: string[]): Record<string, unknown> | null {
  const read = readJsonConfig(file);
  if (read.kind === 'missing') return null;
  if (read.kind === 'bad') {
    problems.push(`${read.problem}; its MCP servers are not loaded`);
    return null;
  }
  if (!isObject(read.value)) {
    problems.push(`${file} is not a JSON object; its MCP servers are not loaded`);
    return null;
  }
  return read.value;
}

/**
 * A project's `.mcp.json` that is a link leading out of the project (to another project's
 * approved servers, or to any file, whose first characters a JSON error would quote) is the
 * repository's word about a file it does not hold: not read, with a problem saying so.
 */
function leadsOut(file: string, projectRoot: string, problems: string[]): boolean {
  const real = realpathNearest(file);
  if (isInside(realpathNearest(projectRoot), real)) return false;
  problems.push(`${file} is a link leading out of the project (to ${real}); its MCP servers are not loaded`);
  return true;
}

/** `--mcp-config` takes a file or JSON text; text starting with `{` is JSON. */
function cliEntries(value: string, s: ConfigSources, problems: string[]): ServerEntry[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('{')) {
    const read = parseJson(trimmed, '--mcp-config JSON');
    if (read.kind !== 'ok') {
      problems.push(`${read.kind === 'bad' ? read.problem : ''}; its MCP servers are not loaded`);
      return [];
    }
    if (!isObject(read.value)) return [];
    return entriesOf(read.value['mcpServers'], 'cli', '--mcp-config JSON', undefined, s.env, problems);
  }
  const file = path.resolve(s.projectRoot, value);
  const data = fromFile(file, problems);
  if (data === null) {
    if (readJsonConfig(file).kind === 'missing') problems.push(`--mcp-config ${file} does not exist`);
    return [];
  }
  return entriesOf(data['mcpServers'], 'cli', file, file, s.env, problems);
}

/**
 * Every configured server, one entry per name: the whole entry comes from the highest source that
 * names it (cli > local > project > user), fields are never merged across sources.
 */
export function loadServerConfigs(s: ConfigSources): LoadedConfigs {
  const problems: string[] = [];
  const cli = (s.cliConfigs ?? []).flatMap((v) => cliEntries(v, s, problems));
  const layers: ServerEntry[][] = [cli];
  if (!s.strict) {
    const userFile = userConfigFile(s.homeDir);
    const user = fromFile(userFile, problems);
    const projects = user?.['projects'];
    const local = isObject(projects) ? projects[s.projectRoot] : undefined;
    const projectFile = path.join(s.projectRoot, PROJECT_MCP_FILE);
    const project = leadsOut(projectFile, s.projectRoot, problems) ? null : fromFile(projectFile, problems);
    layers.push(
      isObject(local)
        ? entriesOf(local['mcpServers'], 'local', `${userFile} (this project)`, userFile, s.env, problems)
        : [],
      project ? entriesOf(project['mcpServers'], 'project', projectFile, projectFile, s.env, problems) : [],
      user ? entriesOf(user['mcpServers'], 'user', userFile, userFile, s.env, problems) : [],
    );
  }
  const seen = new Set<string>();
  const servers: ServerEntry[] = [];
  for (const layer of layers)
    for (const entry of layer) {
      if (seen.has(entry.name)) continue;
      seen.add(entry.name);
      servers.push(entry);
    }
  return { servers, problems };
}

export const transportOf = (c: ServerConfig): McpTransportKind => c.type;
