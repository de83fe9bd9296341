import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../../../platform/errors';
import { COLUMN_NAMES, type FileColumns, type FileEntry, StringTable } from './columns';

/**
 * The ledger's cache file. Only a cache: the transcripts are the truth, so a file that is missing,
 * of another version, cut off or tampered with is answered with `null` (rebuild), never an error.
 * Checked by hand rather than with a schema: a schema walk over 100,000 rows × 12 columns would cost
 * more than the rest of opening the dashboard.
 */
export const CACHE_VERSION = 1;

export interface CacheContents {
  strings: StringTable;
  files: Map<string, FileEntry>;
}

interface CacheJson {
  version: number;
  strings: string[];
  files: (Omit<FileEntry, 'cols'> & { n: number } & FileColumns)[];
}

export function loadCache(file: string): { cache: CacheContents | null; problem: string | null } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { cache: null, problem: null };
    return { cache: null, problem: `The usage ledger could not be read and was rebuilt.` };
  }
  try {
    const cache = validated(JSON.parse(text));
    if (cache) return { cache, problem: null };
  } catch {
    // falls through: rebuilt
  }
  return { cache: null, problem: null };
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumberArray = (v: unknown, n: number): v is number[] =>
  Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'number' && Number.isFinite(x));

function validated(json: unknown): CacheContents | null {
  if (!isObject(json) || json.version !== CACHE_VERSION) return null;
  const { strings: list, files: fileList } = json;
  if (!Array.isArray(list) || !Array.isArray(fileList)) return null;
  if (!list.every((s): s is string => typeof s === 'string')) return null;
  const nStrings = list.length;
  const strings = new StringTable(list);
  // A duplicated string would shift every index after it.
  if (strings.list.length !== nStrings) return null;
  const files = new Map<string, FileEntry>();
  for (const f of fileList as unknown[]) {
    if (!isObject(f)) return null;
    const { path: file, size, mtimeMs, n, problems, earliestAt, info } = f;
    if (typeof file !== 'string' || typeof size !== 'number' || typeof mtimeMs !== 'number') return null;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return null;
    if (!Array.isArray(problems) || !problems.every((p): p is string => typeof p === 'string')) return null;
    if (earliestAt !== null && (typeof earliestAt !== 'number' || !Number.isFinite(earliestAt))) return null;
    if (!validInfo(info)) return null;
    const cols = {} as FileColumns;
    for (const name of COLUMN_NAMES) {
      const col = f[name];
      if (!isNumberArray(col, n)) return null;
      cols[name] = col;
    }
    for (const name of ['key', 'pv', 'model'] as const)
      for (const v of cols[name]) if (v >= nStrings || v < (name === 'model' ? 0 : -1)) return null;
    files.set(file, { path: file, size, mtimeMs, info, problems, earliestAt, cols });
  }
  return { strings, files };
}

function validInfo(info: unknown): info is FileEntry['info'] {
  if (info === null) return true;
  if (typeof info !== 'object') return false;
  const i = info as Record<string, unknown>;
  if (i.source !== 'carapace' && i.source !== 'claude-code') return false;
  if (typeof i.sessionId !== 'string' || typeof i.projectPath !== 'string' || typeof i.title !== 'string')
    return false;
  if (i.agent === null) return true;
  const a = i.agent as Record<string, unknown> | undefined;
  return (
    typeof a === 'object' &&
    typeof a.agentId === 'string' &&
    typeof a.name === 'string' &&
    typeof a.agentType === 'string'
  );
}

/**
 * Writes the cache atomically (temp file + rename, as platform/json-file does) and compactly: one
 * line, no indentation (indenting would put each of a million numbers on its own line). Strings no
 * longer used by any file are dropped.
 */
export function saveCache(file: string, cache: CacheContents): void {
  const strings = new StringTable();
  const files: CacheJson['files'] = [];
  for (const f of cache.files.values()) {
    const map = (i: number) => (i < 0 ? -1 : strings.intern(cache.strings.get(i)));
    const { cols, ...rest } = f;
    files.push({
      ...rest,
      n: cols.at.length,
      ...cols,
      key: cols.key.map(map),
      model: cols.model.map(map),
      pv: cols.pv.map(map),
    });
  }
  const json: CacheJson = { version: CACHE_VERSION, strings: strings.list, files };
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, JSON.stringify(json), { mode: 0o600 });
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
