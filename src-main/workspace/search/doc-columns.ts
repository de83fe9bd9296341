import type { DocKind } from './documents';

/**
 * The saved index's documents as columns: one array per field, file names and models as indexes into
 * short tables. Thirty thousand small objects cost JSON.parse far more than a dozen long arrays of
 * strings and numbers, and checking arrays by hand is one cheap loop each (a schema walk over every
 * object was most of a cold load).
 */

export interface IndexedDoc {
  id: number;
  /** The transcript's file name in the project folder. */
  file: string;
  itemId: string;
  toolUseId: string | null;
  kind: DocKind;
  at: number;
  model: string | null;
  isError: boolean;
  text: string;
}

export const DOC_KINDS: readonly DocKind[] = ['user', 'assistant', 'tool_call', 'tool_result', 'notice'];

export interface DocColumns {
  files: string[];
  models: string[];
  id: number[];
  file: number[];
  itemId: string[];
  toolUseId: (string | null)[];
  kind: number[];
  at: number[];
  /** -1: none. */
  model: number[];
  isError: number[];
  text: string[];
}

export function toColumns(docs: Iterable<IndexedDoc>): DocColumns {
  const fileIndex = new Map<string, number>();
  const modelIndex = new Map<string, number>();
  const c: DocColumns = {
    files: [],
    models: [],
    id: [],
    file: [],
    itemId: [],
    toolUseId: [],
    kind: [],
    at: [],
    model: [],
    isError: [],
    text: [],
  };
  const intern = (map: Map<string, number>, list: string[], s: string) => {
    let i = map.get(s);
    if (i === undefined) {
      i = list.length;
      list.push(s);
      map.set(s, i);
    }
    return i;
  };
  for (const d of docs) {
    c.id.push(d.id);
    c.file.push(intern(fileIndex, c.files, d.file));
    c.itemId.push(d.itemId);
    c.toolUseId.push(d.toolUseId);
    c.kind.push(DOC_KINDS.indexOf(d.kind));
    c.at.push(d.at);
    c.model.push(d.model === null ? -1 : intern(modelIndex, c.models, d.model));
    c.isError.push(d.isError ? 1 : 0);
    c.text.push(d.text);
  }
  return c;
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isIndex = (v: unknown, length: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < length;

/** The documents of saved columns, or null when anything is missing, of the wrong type or out of range. */
export function fromColumns(json: unknown, nextId: number): IndexedDoc[] | null {
  if (typeof json !== 'object' || json === null) return null;
  const c = json as Partial<Record<keyof DocColumns, unknown>>;
  const { files, models, id, file, itemId, toolUseId, kind, at, model, isError, text } = c;
  if (!Array.isArray(files) || !files.every(isStr) || !Array.isArray(models) || !models.every(isStr))
    return null;
  const columns = [id, file, itemId, toolUseId, kind, at, model, isError, text];
  if (!columns.every((col) => Array.isArray(col))) return null;
  const n = (id as unknown[]).length;
  if (!columns.every((col) => (col as unknown[]).length === n)) return null;
  const out: IndexedDoc[] = new Array<IndexedDoc>(n);
  for (let i = 0; i < n; i++) {
    const di = (id as unknown[])[i];
    const f = (file as unknown[])[i];
    const item = (itemId as unknown[])[i];
    const tool = (toolUseId as unknown[])[i];
    const k = (kind as unknown[])[i];
    const t = (at as unknown[])[i];
    const m = (model as unknown[])[i];
    const e = (isError as unknown[])[i];
    const x = (text as unknown[])[i];
    if (
      !isIndex(di, nextId) ||
      !isIndex(f, files.length) ||
      !isStr(item) ||
      !(tool === null || isStr(tool)) ||
      !isIndex(k, DOC_KINDS.length) ||
      typeof t !== 'number' ||
      !Number.isFinite(t) ||
      !(m === -1 || isIndex(m, models.length)) ||
      !(e === 0 || e === 1) ||
      !isStr(x)
    )
      return null;
    out[i] = {
      id: di as number,
      file: files[f as number] as string,
      itemId: item,
      toolUseId: tool,
      kind: DOC_KINDS[k as number] as DocKind,
      at: t,
      model: m === -1 ? null : (models[m as number] as string),
      isError: e === 1,
      text: x,
    };
  }
  return out;
}
