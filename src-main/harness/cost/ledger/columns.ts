import type { TranscriptInfo, UsageRecord } from '../usage-record';

/**
 * The ledger's rows kept as columns: one typed array per field, strings (message ids, models, price
 * versions) as indices into one shared table. 100,000 records load from the cache file and
 * aggregate without creating 100,000 objects. Loaded from the cache, a file's columns are views into
 * one array per field shared by every file.
 */
export interface FileColumns {
  /** Epoch ms. */
  at: Float64Array;
  /** String index of the dedupe key; -1: none. */
  key: Int32Array;
  model: Int32Array;
  input: Float64Array;
  output: Float64Array;
  cw5: Float64Array;
  cw1: Float64Array;
  cr: Float64Array;
  ws: Float64Array;
  /** Micro-dollars; -1: unpriced. */
  cost: Float64Array;
  /** String index; -1: none. */
  pv: Int32Array;
  turn: Float64Array;
}

/** Columns holding string indices (Int32Array); the others hold numbers (Float64Array). */
export const INDEX_COLUMNS = ['key', 'model', 'pv'] as const satisfies readonly (keyof FileColumns)[];
export const NUMBER_COLUMNS = [
  'at',
  'input',
  'output',
  'cw5',
  'cw1',
  'cr',
  'ws',
  'cost',
  'turn',
] as const satisfies readonly (keyof FileColumns)[];

/** One transcript as the ledger knows it: trusted while its size and mtime are unchanged. */
export interface FileEntry {
  path: string;
  size: number;
  mtimeMs: number;
  /** null: not a transcript (only remembered so it is not read again). */
  info: TranscriptInfo | null;
  problems: string[];
  earliestAt: number | null;
  cols: FileColumns;
}

export function emptyColumns(n = 0): FileColumns {
  return {
    at: new Float64Array(n),
    key: new Int32Array(n),
    model: new Int32Array(n),
    input: new Float64Array(n),
    output: new Float64Array(n),
    cw5: new Float64Array(n),
    cw1: new Float64Array(n),
    cr: new Float64Array(n),
    ws: new Float64Array(n),
    cost: new Float64Array(n),
    pv: new Int32Array(n),
    turn: new Float64Array(n),
  };
}

/** Strings by index, and back. */
export class StringTable {
  /** The strings, once needed one by one (to intern, or to save). */
  private items: string[] | null = [];
  /** Built on the first `intern`: a table loaded from the cache and only read never needs it. */
  private index: Map<string, number> | null = null;
  /**
   * As loaded from the cache: every string in one, and where each ends. 100,000 message ids as one
   * string instead of 100,000 small ones cost the garbage collector next to nothing.
   */
  private packed: { text: string; ends: Int32Array } | null = null;

  constructor(initial: readonly string[] = []) {
    for (const s of initial) this.intern(s);
  }

  /** The cache's table (its strings checked distinct): read from the packed text until interned into. */
  static ofPacked(text: string, ends: Int32Array): StringTable {
    const t = new StringTable();
    t.items = null;
    t.packed = { text, ends };
    return t;
  }

  get size(): number {
    return this.items?.length ?? this.packed?.ends.length ?? 0;
  }

  get list(): readonly string[] {
    return this.unpacked();
  }

  intern(s: string): number {
    const list = this.unpacked();
    if (this.index === null) {
      const index = new Map<string, number>();
      list.forEach((x, i) => index.set(x, i));
      this.index = index;
    }
    let i = this.index.get(s);
    if (i === undefined) {
      i = list.length;
      list.push(s);
      this.index.set(s, i);
    }
    return i;
  }

  get(i: number): string {
    if (this.items !== null) return this.items[i] ?? '';
    const p = this.packed;
    if (!p || i < 0 || i >= p.ends.length) return '';
    return p.text.slice(i === 0 ? 0 : (p.ends[i - 1] ?? 0), p.ends[i] ?? 0);
  }

  private unpacked(): string[] {
    if (this.items === null) {
      const n = this.packed?.ends.length ?? 0;
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(this.get(i));
      this.items = items;
      this.packed = null;
    }
    return this.items;
  }
}

const wholeCount = (v: number) => Number.isSafeInteger(v) && v >= 0;

/**
 * Whether a record can be counted: a finite time, whole non-negative token counts and cost, a turn
 * that fits the ledger's 32-bit turn column. The readers' schemas keep out most of what fails here;
 * this is the last check before the sums (a NaN would poison every total it reaches) and the same
 * one the cache file is checked with, so a record that passes it never makes the cache look
 * tampered with.
 */
export function countable(r: UsageRecord): boolean {
  const t = r.tokens;
  return (
    Number.isFinite(r.at) &&
    (r.costMicros === null || wholeCount(r.costMicros)) &&
    wholeCount(t.input) &&
    wholeCount(t.output) &&
    wholeCount(t.cacheWrite5m) &&
    wholeCount(t.cacheWrite1h) &&
    wholeCount(t.cacheRead) &&
    wholeCount(t.webSearches) &&
    Number.isInteger(r.turn) &&
    r.turn >= 0 &&
    r.turn <= MAX_TURN
  );
}

/** The turn column is 32-bit in the flat ledger. */
export const MAX_TURN = 0x7fff_ffff;

export function columnsOf(records: readonly UsageRecord[], strings: StringTable): FileColumns {
  const c = emptyColumns(records.length);
  records.forEach((r, i) => {
    c.at[i] = r.at;
    c.key[i] = r.key === null ? -1 : strings.intern(r.key);
    c.model[i] = strings.intern(r.model);
    c.input[i] = r.tokens.input;
    c.output[i] = r.tokens.output;
    c.cw5[i] = r.tokens.cacheWrite5m;
    c.cw1[i] = r.tokens.cacheWrite1h;
    c.cr[i] = r.tokens.cacheRead;
    c.ws[i] = r.tokens.webSearches;
    c.cost[i] = r.costMicros === null ? -1 : r.costMicros;
    c.pv[i] = r.priceVersion === null ? -1 : strings.intern(r.priceVersion);
    c.turn[i] = r.turn;
  });
  return c;
}
