import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { McpServerConfigInput } from '@shared/domain/mcp';
import { readJsonObject } from '../harness/permissions/settings-file';
import { AppError, errnoCode } from '../platform/errors';
import { writeJsonFileAtomic } from '../platform/json-file';

/**
 * The MCP page's writes into configuration files: one key changed, every other key of the file kept.
 * A file that is there but not a JSON object is never overwritten (the person's text would be lost):
 * the write is refused with the reason. Inside a project, a symlink anywhere on the way to the file
 * is refused too, so a hostile repository cannot point `.mcp.json` or `.claude/` at a file elsewhere
 * and have the app write there.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Refuses `rel` under `root` if the file or a folder on its way is a symlink. */
export function assertNoSymlink(root: string, rel: string): void {
  let at = root;
  for (const part of rel.split('/')) {
    at = path.join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink())
        throw new AppError(
          'FORBIDDEN',
          `${path.relative(root, at)} is a symbolic link; Carapace does not write through it.`,
        );
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return;
      throw error;
    }
  }
}

/** Reads a config file for a change: missing is empty, anything unusable refuses the change. */
function readForChange(file: string): Record<string, unknown> {
  const read = readJsonObject(file);
  if (read.kind === 'missing') return {};
  if (read.kind === 'unreadable')
    throw new AppError('CORRUPT_DATA', `${read.problem}. Fix or remove it first; it was not changed.`);
  return read.value;
}

/** Changes one top-level key of a JSON config file (null removes it). */
export function editJsonFile(
  file: string,
  edit: (current: Record<string, unknown>) => Record<string, unknown>,
  mode?: number,
): void {
  const current = readForChange(file);
  const next = edit(current);
  // Nothing to change: no write (and no new file for a switch that was already off).
  if (JSON.stringify(next) === JSON.stringify(current)) return;
  writeJsonFileAtomic(file, next, mode);
}

/** The configuration as Claude Code writes it: `type` only where it is not stdio. */
export function serverConfig(input: McpServerConfigInput): Record<string, unknown> {
  if (input.transport === 'stdio')
    return {
      command: input.command,
      args: input.args,
      ...(input.env && Object.keys(input.env).length > 0 ? { env: input.env } : {}),
    };
  return { type: input.transport, url: input.url };
}

/** Adds `name` to the file's `mcpServers`; CONFLICT if it is there already. */
export function addServerTo(
  file: string,
  name: string,
  config: Record<string, unknown>,
  mode?: number,
): void {
  editJsonFile(
    file,
    (current) => {
      const servers = current['mcpServers'];
      if (servers !== undefined && !isObject(servers))
        throw new AppError('CORRUPT_DATA', `"mcpServers" in ${file} is not an object; it was not changed.`);
      if (servers && Object.hasOwn(servers, name))
        throw new AppError('CONFLICT', `There is already a server "${name}" in ${file}.`);
      return { ...current, mcpServers: { ...(servers ?? {}), [name]: config } };
    },
    mode,
  );
}

/** Adds or removes `name` in the file's string list `key` (kept sorted, without duplicates). */
export function setListed(file: string, key: string, name: string, listed: boolean): void {
  editJsonFile(file, (current) => {
    const before = current[key];
    if (before !== undefined && !Array.isArray(before))
      throw new AppError('CORRUPT_DATA', `"${key}" in ${file} is not a list; it was not changed.`);
    const rest = ((before ?? []) as unknown[]).filter((x) => x !== name);
    const next = listed ? [...rest, name] : rest;
    const out = { ...current };
    if (next.length === 0) delete out[key];
    else out[key] = next;
    return out;
  });
}
