import type { UsageSource } from '@shared/domain/cost-report';
import type { FileEntry, StringTable } from './columns';
import type { TranscriptInfo } from '../usage-record';

/** An index the ledger built itself is always in range; a bug otherwise, said plainly. */
export function must<T>(v: T | undefined): T {
  if (v === undefined) throw new Error('usage ledger: index out of range');
  return v;
}

/** A session as the aggregates see it: its files' facts combined. */
export interface SessionFacts {
  source: UsageSource;
  sessionId: string;
  projectPath: string;
  title: string;
}

/**
 * Every counted record of every transcript in flat typed arrays, duplicates removed: what each query
 * loops over. Rebuilt in memory (a few ms) whenever a transcript changed; never saved.
 */
export interface FlatLedger {
  n: number;
  /** Per record: index into `files`. */
  file: Int32Array;
  at: Float64Array;
  model: Int32Array;
  input: Float64Array;
  output: Float64Array;
  cw5: Float64Array;
  cw1: Float64Array;
  cr: Float64Array;
  ws: Float64Array;
  /** -1: unpriced. */
  cost: Float64Array;
  /** The main agent's user turn (a sub-agent's records take the turn they ran in). */
  turn: Int32Array;
  files: FileEntry[];
  /** Per file: what it says about its session (every counted file is a transcript). */
  infos: TranscriptInfo[];
  /** Per file: 1 for a sub-agent's or teammate's transcript. */
  fileAgent: Uint8Array;
  /** Per file: index into `sessions`. */
  fileSession: Int32Array;
  sessions: SessionFacts[];
  strings: StringTable;
  /** Per record: a dense model number (index into `modelNames`), for array-indexed sums. */
  modelId: Int32Array;
  modelNames: string[];
  /** Per record: its (session, turn) group, index into `turnGroups`; -1 outside any turn. */
  turnGroup: Int32Array;
  turnGroups: { session: number; turn: number }[];
}

/**
 * Orders files as duplicates are resolved (by earliest record, then path: the first copy of a reply
 * is the one kept, as ccusage keeps it), drops records whose key was already counted in the same
 * source, and gives sub-agents' records the main agent's turn they ran in.
 */
export function flatten(entries: Iterable<FileEntry>, strings: StringTable): FlatLedger {
  const files = [...entries]
    .filter((f): f is FileEntry & { info: TranscriptInfo } => f.info !== null)
    .sort((a, b) => {
      const x = a.earliestAt ?? Infinity;
      const y = b.earliestAt ?? Infinity;
      return x !== y ? x - y : a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    });
  let total = 0;
  for (const f of files) total += f.cols.at.length;
  const flat: FlatLedger = {
    n: 0,
    file: new Int32Array(total),
    at: new Float64Array(total),
    model: new Int32Array(total),
    input: new Float64Array(total),
    output: new Float64Array(total),
    cw5: new Float64Array(total),
    cw1: new Float64Array(total),
    cr: new Float64Array(total),
    ws: new Float64Array(total),
    cost: new Float64Array(total),
    turn: new Int32Array(total),
    files,
    infos: files.map((f) => f.info),
    fileAgent: Uint8Array.from(files, (f) => (f.info.agent === null ? 0 : 1)),
    fileSession: new Int32Array(files.length),
    sessions: [],
    strings,
    modelId: new Int32Array(0),
    modelNames: [],
    turnGroup: new Int32Array(0),
    turnGroups: [],
  };
  const sessionIndex = new Map<string, number>();
  const seen: Record<UsageSource, Set<number>> = { carapace: new Set(), 'claude-code': new Set() };
  let n = 0;
  files.forEach((f, fi) => {
    const info = f.info;
    const sk = `${info.source}\0${info.sessionId}`;
    let si = sessionIndex.get(sk);
    if (si === undefined) {
      si = flat.sessions.length;
      sessionIndex.set(sk, si);
      flat.sessions.push({
        source: info.source,
        sessionId: info.sessionId,
        projectPath: info.projectPath,
        title: '',
      });
    }
    const s = must(flat.sessions[si]);
    // The main agent's file names the session; a sub-agent's only until the main one is seen.
    if (info.agent === null) {
      s.projectPath = info.projectPath;
      if (info.title !== '') s.title = info.title;
    }
    flat.fileSession[fi] = si;
    const c = f.cols;
    const dedupe = seen[info.source];
    for (let i = 0; i < c.at.length; i++) {
      const key = c.key[i] ?? 0;
      if (key >= 0) {
        if (dedupe.has(key)) continue;
        dedupe.add(key);
      }
      flat.file[n] = fi;
      flat.at[n] = c.at[i] ?? 0;
      flat.model[n] = c.model[i] ?? 0;
      flat.input[n] = c.input[i] ?? 0;
      flat.output[n] = c.output[i] ?? 0;
      flat.cw5[n] = c.cw5[i] ?? 0;
      flat.cw1[n] = c.cw1[i] ?? 0;
      flat.cr[n] = c.cr[i] ?? 0;
      flat.ws[n] = c.ws[i] ?? 0;
      flat.cost[n] = c.cost[i] ?? 0;
      flat.turn[n] = c.turn[i] ?? 0;
      n++;
    }
  });
  flat.n = n;
  assignSubAgentTurns(flat);
  groupModelsAndTurns(flat);
  return flat;
}

/** Dense numbers for models and for (session, turn) pairs: the report sums into plain arrays by them. */
function groupModelsAndTurns(flat: FlatLedger): void {
  const dense = new Map<number, number>();
  flat.modelId = new Int32Array(flat.n);
  flat.turnGroup = new Int32Array(flat.n);
  const turnIndex = new Map<number, number>();
  for (let i = 0; i < flat.n; i++) {
    const m = flat.model[i] ?? 0;
    let id = dense.get(m);
    if (id === undefined) {
      id = flat.modelNames.length;
      dense.set(m, id);
      flat.modelNames.push(flat.strings.get(m));
    }
    flat.modelId[i] = id;
    const turn = flat.turn[i] ?? 0;
    if (turn <= 0) {
      flat.turnGroup[i] = -1;
      continue;
    }
    const session = flat.fileSession[flat.file[i] ?? 0] ?? 0;
    // Turns of one session stay far below 2^21; sessions below 2^31.
    const key = session * 2_097_152 + Math.min(turn, 2_097_151);
    let g = turnIndex.get(key);
    if (g === undefined) {
      g = flat.turnGroups.length;
      turnIndex.set(key, g);
      flat.turnGroups.push({ session, turn });
    }
    flat.turnGroup[i] = g;
  }
}

/**
 * A sub-agent's usage line carries its own turn; in the session it belongs to the main agent's turn
 * during which it ran: the turn of the main agent's latest response before it.
 */
function assignSubAgentTurns(flat: FlatLedger): void {
  const mainTimes = new Map<number, { at: number[]; turn: number[] }>();
  const isAgent = (i: number) => flat.fileAgent[flat.file[i] ?? 0] === 1;
  const order: number[] = [];
  for (let i = 0; i < flat.n; i++) if (!isAgent(i)) order.push(i);
  order.sort((a, b) => (flat.at[a] ?? 0) - (flat.at[b] ?? 0));
  for (const i of order) {
    const si = flat.fileSession[flat.file[i] ?? 0] ?? 0;
    let m = mainTimes.get(si);
    if (!m) mainTimes.set(si, (m = { at: [], turn: [] }));
    m.at.push(flat.at[i] ?? 0);
    m.turn.push(flat.turn[i] ?? 0);
  }
  for (let i = 0; i < flat.n; i++) {
    if (!isAgent(i)) continue;
    const m = mainTimes.get(flat.fileSession[flat.file[i] ?? 0] ?? 0);
    if (!m) {
      flat.turn[i] = 0;
      continue;
    }
    const at = flat.at[i] ?? 0;
    let lo = 0;
    let hi = m.at.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((m.at[mid] ?? 0) <= at) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    flat.turn[i] = found >= 0 ? (m.turn[found] ?? 0) : (m.turn[0] ?? 0);
  }
}
