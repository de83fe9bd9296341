import type { TranscriptInfo, UsageRecord } from '../usage-record';

/**
 * The ledger's rows kept as columns: one array of numbers per field, strings (message ids, models,
 * price versions) as indices into one shared table. 100,000 records load from the cache file and
 * aggregate without creating 100,000 objects.
 */
export interface FileColumns {
  /** Epoch ms. */
  at: number[];
  /** String index of the dedupe key; -1: none. */
  key: number[];
  model: number[];
  input: number[];
  output: number[];
  cw5: number[];
  cw1: number[];
  cr: number[];
  ws: number[];
  /** Micro-dollars; -1: unpriced. */
  cost: number[];
  /** String index; -1: none. */
  pv: number[];
  turn: number[];
}

export const COLUMN_NAMES = [
  'at',
  'key',
  'model',
  'input',
  'output',
  'cw5',
  'cw1',
  'cr',
  'ws',
  'cost',
  'pv',
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

export function emptyColumns(): FileColumns {
  return {
    at: [],
    key: [],
    model: [],
    input: [],
    output: [],
    cw5: [],
    cw1: [],
    cr: [],
    ws: [],
    cost: [],
    pv: [],
    turn: [],
  };
}

/** Strings by index, and back. */
export class StringTable {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();

  constructor(initial: readonly string[] = []) {
    for (const s of initial) this.intern(s);
  }

  intern(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.index.set(s, i);
    }
    return i;
  }

  get(i: number): string {
    return this.list[i] ?? '';
  }
}

export function columnsOf(records: readonly UsageRecord[], strings: StringTable): FileColumns {
  const c = emptyColumns();
  for (const r of records) {
    c.at.push(r.at);
    c.key.push(r.key === null ? -1 : strings.intern(r.key));
    c.model.push(strings.intern(r.model));
    c.input.push(r.tokens.input);
    c.output.push(r.tokens.output);
    c.cw5.push(r.tokens.cacheWrite5m);
    c.cw1.push(r.tokens.cacheWrite1h);
    c.cr.push(r.tokens.cacheRead);
    c.ws.push(r.tokens.webSearches);
    c.cost.push(r.costMicros === null ? -1 : r.costMicros);
    c.pv.push(r.priceVersion === null ? -1 : strings.intern(r.priceVersion));
    c.turn.push(r.turn);
  }
  return c;
}
