import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { endianness } from 'node:os';
import path from 'node:path';
import { errnoCode } from '../../../platform/errors';
import {
  emptyColumns,
  type FileColumns,
  type FileEntry,
  INDEX_COLUMNS,
  MAX_TURN,
  NUMBER_COLUMNS,
  StringTable,
} from './columns';

/**
 * The ledger's cache file. Only a cache: the transcripts are the truth, so a file that is missing,
 * of another version or price table, cut off or tampered with is answered with `null` (rebuild),
 * never an error and never figures other than a fresh build's.
 *
 * Version 2 keeps each column of every file's records as one typed array, little-endian, in base64:
 * parsing a dozen long strings and decoding them is many times faster than parsing a million numbers
 * one by one, which is what made opening the dashboard slow. Checked by hand rather than with a
 * schema: one pass over the typed arrays costs a millisecond, a schema walk over 100,000 rows far
 * more than the rest of opening the dashboard.
 */
export const CACHE_VERSION = 2;

export interface CacheContents {
  strings: StringTable;
  files: Map<string, FileEntry>;
}

/** A column on disk: the narrowest of 8-, 16- and 32-bit integers that holds it, else 64-bit floats. */
interface ColumnJson {
  type: ColumnType;
  data: string;
}

interface FileJson extends Omit<FileEntry, 'cols'> {
  n: number;
}

interface CacheJson {
  version: number;
  /** The price table the ledger priced records with (those without a stored price). */
  priceTable: string;
  n: number;
  strings: { text: string; count: number; ends: ColumnJson };
  files: FileJson[];
  columns: Record<keyof FileColumns, ColumnJson>;
}

/**
 * The cache as last saved, or null (rebuild) when it is missing, of another version or price table,
 * or fails any check. `problem`: the file exists but could not be read at all.
 */
export function loadCache(
  file: string,
  priceTable: string,
): { cache: CacheContents | null; problem: string | null } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { cache: null, problem: null };
    return { cache: null, problem: `The usage ledger could not be read and was rebuilt.` };
  }
  try {
    return { cache: validated(JSON.parse(text), priceTable), problem: null };
  } catch {
    // Not JSON, or a check threw on a value of an unexpected shape: rebuilt.
    return { cache: null, problem: null };
  }
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Own properties only: a `__proto__` or `constructor` key in the file is just an unknown key. */
const own = (o: Loose, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const LITTLE_ENDIAN = endianness() === 'LE';

function validated(json: unknown, priceTable: string): CacheContents | null {
  if (!isObject(json) || own(json, 'version') !== CACHE_VERSION) return null;
  if (own(json, 'priceTable') !== priceTable) return null;
  const n = own(json, 'n');
  const packed = own(json, 'strings');
  const fileList = own(json, 'files');
  const columns = own(json, 'columns');
  if (!isCount(n) || !isObject(packed) || !Array.isArray(fileList) || !isObject(columns)) return null;
  const strings = stringsOf(packed);
  if (!strings) return null;

  const cols = emptyColumns();
  for (const name of [...INDEX_COLUMNS, ...NUMBER_COLUMNS]) {
    const c = own(columns, name);
    if (!isObject(c)) return null;
    const type = own(c, 'type');
    const data = own(c, 'data');
    if (typeof type !== 'string' || !Object.hasOwn(WIDTH, type) || typeof data !== 'string') return null;
    const decoded = decode(type as ColumnType, data, n);
    if (!decoded) return null;
    if (INDEX_COLUMNS.includes(name as (typeof INDEX_COLUMNS)[number])) {
      if (!(decoded instanceof Int32Array)) return null;
      cols[name as (typeof INDEX_COLUMNS)[number]] = decoded;
    } else
      cols[name as (typeof NUMBER_COLUMNS)[number]] =
        decoded instanceof Float64Array ? decoded : Float64Array.from(decoded);
  }
  if (!validColumns(cols, n, strings.size)) return null;

  const files = new Map<string, FileEntry>();
  let offset = 0;
  for (const f of fileList as unknown[]) {
    const entry = validFile(f);
    if (!entry || files.has(entry.path) || entry.n > n - offset) return null;
    const { n: count, ...rest } = entry;
    const fileCols = slice(cols, offset, offset + count);
    // The order duplicates are resolved in: never later than the file's first record.
    if (count > 0 && (rest.earliestAt === null || rest.earliestAt > minimum(fileCols.at))) return null;
    files.set(entry.path, { ...rest, cols: fileCols });
    offset += count;
  }
  // Every record belongs to exactly one file.
  if (offset !== n) return null;
  return { strings, files };
}

/**
 * The string table: every string in one text, each one's end in a column. Saved in ascending order,
 * so a duplicated string (one message id with two indices, its duplicate then counted twice) shows
 * as two equal neighbours, found without a set of 100,000 strings.
 */
function stringsOf(packed: Loose): StringTable | null {
  const text = own(packed, 'text');
  const count = own(packed, 'count');
  const ends = own(packed, 'ends');
  if (typeof text !== 'string' || !isCount(count) || !isObject(ends)) return null;
  const type = own(ends, 'type');
  const data = own(ends, 'data');
  if (typeof type !== 'string' || !Object.hasOwn(WIDTH, type) || typeof data !== 'string') return null;
  const decoded = decode(type as ColumnType, data, count);
  if (!(decoded instanceof Int32Array) || !ascending(text, decoded)) return null;
  return StringTable.ofPacked(text, decoded);
}

/** Each end after the one before, the last at the text's end, each string above the one before. */
function ascending(text: string, ends: Int32Array): boolean {
  let prevStart = 0;
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] ?? -1;
    if (end < start || end > text.length) return false;
    if (i > 0 && !below(text, prevStart, start, end)) return false;
    prevStart = start;
    start = end;
  }
  return start === text.length;
}

/** Whether text[a, b) sorts before text[b, c) (as `<` compares strings: by UTF-16 code unit). */
function below(text: string, a: number, b: number, c: number): boolean {
  const m = Math.min(b - a, c - b);
  for (let k = 0; k < m; k++) {
    const x = text.charCodeAt(a + k);
    const y = text.charCodeAt(b + k);
    if (x !== y) return x < y;
  }
  return b - a < c - b;
}

/** A column of `n` values, or null when its data is not exactly that long. */
function decode(type: ColumnType, data: string, n: number): Int32Array | Float64Array | null {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length !== n * WIDTH[type]) return null;
  // A typed array needs an aligned start: a small decoded Buffer may sit anywhere in a shared pool.
  let copy = bytes;
  if (bytes.byteOffset % 8 !== 0) {
    copy = Buffer.from(new ArrayBuffer(bytes.length));
    bytes.copy(copy);
  }
  if (!LITTLE_ENDIAN) {
    if (type === 'f64') copy.swap64();
    else if (type === 'i32') copy.swap32();
    else if (type === 'i16') copy.swap16();
  }
  const { buffer, byteOffset } = copy;
  if (type === 'f64') return new Float64Array(buffer, byteOffset, n);
  if (type === 'i32') return new Int32Array(buffer, byteOffset, n);
  return Int32Array.from(
    type === 'i16' ? new Int16Array(buffer, byteOffset, n) : new Int8Array(buffer, byteOffset, n),
  );
}

/**
 * Every value as the readers make them: string indices in the table, times finite, token counts and
 * turns whole and non-negative, a cost non-negative or -1 (unpriced). Anything else: tampered.
 */
function validColumns(c: FileColumns, n: number, nStrings: number): boolean {
  // Column by column: one short loop each is several times faster than every check per record.
  if (
    !inRange(c.key, n, -1, nStrings) ||
    !inRange(c.model, n, 0, nStrings) ||
    !inRange(c.pv, n, -1, nStrings)
  )
    return false;
  return (
    finite(c.at, n) &&
    costs(c.cost, n) &&
    turns(c.turn, n) &&
    counts(c.input, n) &&
    counts(c.output, n) &&
    counts(c.cw5, n) &&
    counts(c.cw1, n) &&
    counts(c.cr, n) &&
    counts(c.ws, n)
  );
}

// One loop per function: each is compiled while it runs without dragging in the others.

function finite(a: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/** Micro-dollars, or -1: unpriced. */
function costs(a: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const v = a[i] ?? NaN;
    if (!(v === -1 || (v >= 0 && Number.isSafeInteger(v)))) return false;
  }
  return true;
}

function turns(a: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const v = a[i] ?? NaN;
    if (!(v >= 0 && v <= MAX_TURN && Number.isInteger(v))) return false;
  }
  return true;
}

/** Every index at least `lo` and below `end`. */
function inRange(a: Int32Array, n: number, lo: number, end: number): boolean {
  for (let i = 0; i < n; i++) {
    const v = a[i] ?? lo - 1;
    if (v < lo || v >= end) return false;
  }
  return true;
}

/** Whole, non-negative and exact. */
function counts(a: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const v = a[i] ?? NaN;
    if (!(v >= 0 && v <= Number.MAX_SAFE_INTEGER && Math.floor(v) === v)) return false;
  }
  return true;
}

/** A file's entry from the cache, rebuilt field by field (nothing of the parsed object is kept). */
function validFile(f: unknown): (Omit<FileEntry, 'cols'> & { n: number }) | null {
  if (!isObject(f)) return null;
  const file = own(f, 'path');
  const size = own(f, 'size');
  const mtimeMs = own(f, 'mtimeMs');
  const n = own(f, 'n');
  const problems = own(f, 'problems');
  const earliestAt = own(f, 'earliestAt');
  if (typeof file !== 'string' || !isCount(size) || !isTime(mtimeMs)) return null;
  if (!isCount(n)) return null;
  if (!Array.isArray(problems) || !problems.every((p): p is string => typeof p === 'string')) return null;
  if (earliestAt !== null && !isTime(earliestAt)) return null;
  const info = validInfo(own(f, 'info'));
  if (info === undefined) return null;
  // A file that is not a transcript has no records.
  if (info === null && n !== 0) return null;
  return { path: file, size, mtimeMs, n, problems: [...problems], earliestAt, info };
}

/** The transcript's facts, null (not a transcript), or undefined: not valid. */
function validInfo(info: unknown): FileEntry['info'] | undefined {
  if (info === null) return null;
  if (!isObject(info)) return undefined;
  const source = own(info, 'source');
  const sessionId = own(info, 'sessionId');
  const projectPath = own(info, 'projectPath');
  const title = own(info, 'title');
  const agent = own(info, 'agent');
  if (source !== 'carapace' && source !== 'claude-code') return undefined;
  if (typeof sessionId !== 'string' || typeof projectPath !== 'string' || typeof title !== 'string')
    return undefined;
  if (agent === null) return { source, sessionId, projectPath, title, agent: null };
  if (!isObject(agent)) return undefined;
  const agentId = own(agent, 'agentId');
  const name = own(agent, 'name');
  const agentType = own(agent, 'agentType');
  if (typeof agentId !== 'string' || typeof name !== 'string' || typeof agentType !== 'string')
    return undefined;
  return { source, sessionId, projectPath, title, agent: { agentId, name, agentType } };
}

function minimum(a: Float64Array): number {
  let m = Infinity;
  for (const v of a) if (v < m) m = v;
  return m;
}

function slice(c: FileColumns, from: number, to: number): FileColumns {
  return {
    at: c.at.subarray(from, to),
    key: c.key.subarray(from, to),
    model: c.model.subarray(from, to),
    input: c.input.subarray(from, to),
    output: c.output.subarray(from, to),
    cw5: c.cw5.subarray(from, to),
    cw1: c.cw1.subarray(from, to),
    cr: c.cr.subarray(from, to),
    ws: c.ws.subarray(from, to),
    cost: c.cost.subarray(from, to),
    pv: c.pv.subarray(from, to),
    turn: c.turn.subarray(from, to),
  };
}

/**
 * Writes the cache atomically (temp file + rename, as platform/json-file does). Strings no longer
 * used by any file are dropped.
 */
export function saveCache(file: string, cache: CacheContents, priceTable: string): void {
  const strings = new StringTable();
  const files: FileJson[] = [];
  let n = 0;
  for (const f of cache.files.values()) n += f.cols.at.length;
  const all = emptyColumns(n);
  let offset = 0;
  for (const f of cache.files.values()) {
    const { cols, ...rest } = f;
    const count = cols.at.length;
    files.push({ ...rest, n: count });
    for (const name of NUMBER_COLUMNS) all[name].set(cols[name], offset);
    for (const name of INDEX_COLUMNS)
      for (let i = 0; i < count; i++) {
        const s = cols[name][i] ?? -1;
        all[name][offset + i] = s < 0 ? -1 : strings.intern(cache.strings.get(s));
      }
    offset += count;
  }
  // Strings in ascending order (see `validated`), the index columns renumbered to match.
  const order = [...strings.list.keys()].sort((a, b) => {
    const x = strings.get(a);
    const y = strings.get(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const rank = new Int32Array(order.length);
  order.forEach((old, i) => (rank[old] = i));
  for (const name of INDEX_COLUMNS) {
    const c = all[name];
    for (let i = 0; i < n; i++) {
      const s = c[i] ?? -1;
      if (s >= 0) c[i] = rank[s] ?? -1;
    }
  }
  const sorted = order.map((i) => strings.get(i));
  const ends = new Int32Array(sorted.length);
  let end = 0;
  sorted.forEach((x, i) => (ends[i] = end += x.length));
  const packed = { text: sorted.join(''), count: sorted.length, ends: encode(ends) };
  const columns = {} as CacheJson['columns'];
  for (const name of INDEX_COLUMNS) columns[name] = encode(all[name]);
  for (const name of NUMBER_COLUMNS) columns[name] = encode(all[name]);
  const json: CacheJson = { version: CACHE_VERSION, priceTable, n, strings: packed, files, columns };
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

const WIDTH = { i8: 1, i16: 2, i32: 4, f64: 8 } as const;
type ColumnType = keyof typeof WIDTH;

/** The narrowest type that holds every value exactly. */
function encode(a: Int32Array | Float64Array): ColumnJson {
  let lo = 0;
  let hi = 0;
  let whole = true;
  for (const v of a) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if ((v | 0) !== v || Object.is(v, -0)) whole = false;
  }
  const type: ColumnType = !whole
    ? 'f64'
    : lo >= -0x80 && hi < 0x80
      ? 'i8'
      : lo >= -0x8000 && hi < 0x8000
        ? 'i16'
        : 'i32';
  const out =
    type === 'f64'
      ? Float64Array.from(a)
      : type === 'i32'
        ? Int32Array.from(a)
        : type === 'i16'
          ? Int16Array.from(a)
          : Int8Array.from(a);
  const b = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  if (!LITTLE_ENDIAN) {
    if (type === 'f64') b.swap64();
    else if (type === 'i32') b.swap32();
    else if (type === 'i16') b.swap16();
  }
  return { type, data: b.toString('base64') };
}
