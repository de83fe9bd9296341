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
  // Keys are string indices: a flag per string and source is cheaper than a set of 100,000 numbers.
  const seen: Record<UsageSource, Uint8Array> = {
    carapace: new Uint8Array(strings.size),
    'claude-code': new Uint8Array(strings.size),
  };
  let n = 0;
  /** Per file: its first record (a file's records are consecutive); one more entry: the end. */
  const fileStart = new Int32Array(files.length + 1);
  files.forEach((f, fi) => {
    fileStart[fi] = n;
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
    const count = c.at.length;
    // Mostly no record of a file was counted before: its columns are copied whole.
    let dup = -1;
    for (let i = 0; i < count; i++) {
      const key = c.key[i] ?? -1;
      if (key < 0) continue;
      if (dedupe[key] === 1) {
        dup = i;
        break;
      }
      dedupe[key] = 1;
    }
    // Else record by record, from a clean slate: the keys just marked were all new.
    for (let i = 0; i < dup; i++) {
      const key = c.key[i] ?? -1;
      if (key >= 0) dedupe[key] = 0;
    }
    const fresh = dup < 0;
    if (fresh) {
      flat.file.fill(fi, n, n + count);
      flat.at.set(c.at, n);
      flat.model.set(c.model, n);
      flat.input.set(c.input, n);
      flat.output.set(c.output, n);
      flat.cw5.set(c.cw5, n);
      flat.cw1.set(c.cw1, n);
      flat.cr.set(c.cr, n);
      flat.ws.set(c.ws, n);
      flat.cost.set(c.cost, n);
      flat.turn.set(c.turn, n);
      n += count;
      return;
    }
    for (let i = 0; i < c.at.length; i++) {
      const key = c.key[i] ?? -1;
      if (key >= 0) {
        if (dedupe[key] === 1) continue;
        dedupe[key] = 1;
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
  fileStart[files.length] = n;
  assignSubAgentTurns(flat, fileStart);
  groupModelsAndTurns(flat);
  return flat;
}

/** Dense numbers for models and for (session, turn) pairs: the report sums into plain arrays by them. */
function groupModelsAndTurns(flat: FlatLedger): void {
  const dense = new Int32Array(flat.strings.size).fill(-1);
  flat.modelId = new Int32Array(flat.n);
  flat.turnGroup = new Int32Array(flat.n);
  const turnIndex = new Map<number, number>();
  // Records come file by file, a turn's records one after another: most find the last one's group.
  let lastSession = -1;
  let lastTurn = -1;
  let lastGroup = -1;
  for (let i = 0; i < flat.n; i++) {
    const m = flat.model[i] ?? 0;
    let id = dense[m] ?? -1;
    if (id < 0) {
      id = flat.modelNames.length;
      dense[m] = id;
      flat.modelNames.push(flat.strings.get(m));
    }
    flat.modelId[i] = id;
    const turn = flat.turn[i] ?? 0;
    if (turn <= 0) {
      flat.turnGroup[i] = -1;
      continue;
    }
    const session = flat.fileSession[flat.file[i] ?? 0] ?? 0;
    if (session === lastSession && turn === lastTurn) {
      flat.turnGroup[i] = lastGroup;
      continue;
    }
    // Turns of one session stay far below 2^21; sessions below 2^31.
    const key = session * 2_097_152 + Math.min(turn, 2_097_151);
    let g = turnIndex.get(key);
    if (g === undefined) {
      g = flat.turnGroups.length;
      turnIndex.set(key, g);
      flat.turnGroups.push({ session, turn });
    }
    flat.turnGroup[i] = g;
    lastSession = session;
    lastTurn = turn;
    lastGroup = g;
  }
}

/**
 * A sub-agent's usage line carries its own turn; in the session it belongs to the main agent's turn
 * during which it ran: the turn of the main agent's latest response before it. Only sessions with a
 * sub-agent's file need the main agent's times.
 */
function assignSubAgentTurns(flat: FlatLedger, fileStart: Int32Array): void {
  const withAgents = new Uint8Array(flat.sessions.length);
  flat.fileAgent.forEach((a, fi) => {
    if (a === 1) withAgents[flat.fileSession[fi] ?? 0] = 1;
  });
  const mainTimes = new Map<number, { at: number[]; turn: number[]; sorted: boolean }>();
  for (let fi = 0; fi < flat.files.length; fi++) {
    const si = flat.fileSession[fi] ?? 0;
    if (flat.fileAgent[fi] === 1 || withAgents[si] !== 1) continue;
    let m = mainTimes.get(si);
    if (!m) mainTimes.set(si, (m = { at: [], turn: [], sorted: true }));
    for (let i = fileStart[fi] ?? 0; i < (fileStart[fi + 1] ?? 0); i++) {
      const at = flat.at[i] ?? 0;
      if (m.at.length > 0 && at < (m.at[m.at.length - 1] ?? 0)) m.sorted = false;
      m.at.push(at);
      m.turn.push(flat.turn[i] ?? 0);
    }
  }
  for (const m of mainTimes.values()) {
    if (m.sorted) continue;
    // Stable: of two responses at the same time, the earlier-read one stays first.
    const order = m.at.map((_, k) => k).sort((a, b) => (m.at[a] ?? 0) - (m.at[b] ?? 0));
    const at = order.map((k) => m.at[k] ?? 0);
    const turn = order.map((k) => m.turn[k] ?? 0);
    m.at = at;
    m.turn = turn;
  }
  for (let fi = 0; fi < flat.files.length; fi++) {
    if (flat.fileAgent[fi] !== 1) continue;
    const m = mainTimes.get(flat.fileSession[fi] ?? 0);
    for (let i = fileStart[fi] ?? 0; i < (fileStart[fi + 1] ?? 0); i++) {
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
}
