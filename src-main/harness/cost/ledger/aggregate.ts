import type {
  CostSum,
  Day,
  DayCost,
  MemberCost,
  ModelCost,
  SessionCostDetail,
  SessionCostRow,
  TokenCounts,
  TurnCost,
  UsageSource,
} from '@shared/domain/cost-report';
import { type FlatLedger, must } from './flat';
import { dayIndex, dayStart, daysBetween } from './local-day';

/** Aggregates of the flat ledger: each query is one pass over the records it selects. */

export const TOP_TURNS = 20;

/** A CostSum being added up (plain numbers: cheaper than objects in the hot loop). */
class Acc {
  cost = 0;
  input = 0;
  output = 0;
  cw5 = 0;
  cw1 = 0;
  cr = 0;
  ws = 0;
  records = 0;
  unpriced = 0;

  add(f: FlatLedger, i: number): void {
    const c = f.cost[i] ?? 0;
    if (c < 0) this.unpriced++;
    else this.cost += c;
    this.input += f.input[i] ?? 0;
    this.output += f.output[i] ?? 0;
    this.cw5 += f.cw5[i] ?? 0;
    this.cw1 += f.cw1[i] ?? 0;
    this.cr += f.cr[i] ?? 0;
    this.ws += f.ws[i] ?? 0;
    this.records++;
  }

  tokens(): TokenCounts {
    return {
      input: this.input,
      output: this.output,
      cacheWrite5m: this.cw5,
      cacheWrite1h: this.cw1,
      cacheRead: this.cr,
      webSearches: this.ws,
    };
  }

  reset(): void {
    this.cost = 0;
    this.input = 0;
    this.output = 0;
    this.cw5 = 0;
    this.cw1 = 0;
    this.cr = 0;
    this.ws = 0;
    this.records = 0;
    this.unpriced = 0;
  }

  sum(): CostSum {
    return {
      costMicros: this.cost,
      tokens: this.tokens(),
      records: this.records,
      unpricedRecords: this.unpriced,
    };
  }
}

class TurnAcc extends Acc {
  at = Infinity;
  readonly models = new Set<number>();
}

/** A run of consecutive records of one day, model, file and turn group, being added up. */
class Run extends Acc {
  day = -1;
  model = -1;
  file = -1;
  group = -1;
  first = Infinity;
  last = -Infinity;

  start(day: number, model: number, file: number, group: number): void {
    this.reset();
    this.day = day;
    this.model = model;
    this.file = file;
    this.group = group;
    this.first = Infinity;
    this.last = -Infinity;
  }
}

/** Every group a report sums into, and what it keeps per session and turn. */
class Groups {
  readonly total = new Sums(1);
  readonly byDay: Sums;
  /** Day × model pairs that occur (few of all the pairs): each pair's slot in `dayModel`. */
  readonly dayModelSlot = new Map<number, number>();
  readonly dayModelPairs: number[] = [];
  dayModel: Sums;
  readonly byModel: Sums;
  readonly bySession: Sums;
  readonly byTurn: Sums;
  readonly first: Float64Array;
  readonly last: Float64Array;
  readonly subAgent: Float64Array;
  readonly sessionTurns: Int32Array;
  readonly turnFirst: Float64Array;
  readonly turnCounted: Uint8Array;
  readonly sessionModels: (Set<number> | undefined)[];
  private readonly M: number;

  constructor(
    private readonly f: FlatLedger,
    days: number,
  ) {
    const S = f.sessions.length;
    const T = f.turnGroups.length;
    this.M = f.modelNames.length;
    this.byDay = new Sums(days);
    this.dayModel = new Sums(Math.max(16, days));
    this.byModel = new Sums(this.M);
    this.bySession = new Sums(S);
    this.byTurn = new Sums(T);
    this.first = new Float64Array(S).fill(Infinity);
    this.last = new Float64Array(S).fill(-Infinity);
    this.subAgent = new Float64Array(S);
    this.sessionTurns = new Int32Array(S);
    this.turnFirst = new Float64Array(T).fill(Infinity);
    this.turnCounted = new Uint8Array(T);
    this.sessionModels = new Array<Set<number> | undefined>(S);
  }

  add(run: Run): void {
    if (run.records === 0) return;
    const { day: d, model: m, file, group: g } = run;
    this.total.addRun(0, run);
    this.byDay.addRun(d, run);
    const pair = d * this.M + m;
    let slot = this.dayModelSlot.get(pair);
    if (slot === undefined) {
      slot = this.dayModelPairs.length;
      this.dayModelSlot.set(pair, slot);
      this.dayModelPairs.push(pair);
      if (slot >= this.dayModel.records.length) this.dayModel = grown(this.dayModel, slot * 2);
    }
    this.dayModel.addRun(slot, run);
    this.byModel.addRun(m, run);
    const si = this.f.fileSession[file] ?? 0;
    this.bySession.addRun(si, run);
    let models = this.sessionModels[si];
    if (!models) this.sessionModels[si] = models = new Set();
    models.add(m);
    if (run.first < (this.first[si] ?? 0)) this.first[si] = run.first;
    if (run.last > (this.last[si] ?? 0)) this.last[si] = run.last;
    const isAgent = this.f.fileAgent[file] === 1;
    if (isAgent) this.subAgent[si] = (this.subAgent[si] ?? 0) + run.cost;
    if (g >= 0) {
      this.byTurn.addRun(g, run);
      if (run.first < (this.turnFirst[g] ?? 0)) this.turnFirst[g] = run.first;
      if (!isAgent && this.turnCounted[g] === 0) {
        this.turnCounted[g] = 1;
        this.sessionTurns[si] = (this.sessionTurns[si] ?? 0) + 1;
      }
    }
  }
}

export interface ReportQuery {
  projectPaths: string[] | null;
  from: Day;
  to: Day;
  sources: UsageSource[];
}

/** Many CostSums at once, one slot per group, as plain arrays: the report's hot loop allocates nothing. */
class Sums {
  readonly cost: Float64Array;
  readonly input: Float64Array;
  readonly output: Float64Array;
  readonly cw5: Float64Array;
  readonly cw1: Float64Array;
  readonly cr: Float64Array;
  readonly ws: Float64Array;
  readonly records: Float64Array;
  readonly unpriced: Float64Array;

  constructor(size: number) {
    this.cost = new Float64Array(size);
    this.input = new Float64Array(size);
    this.output = new Float64Array(size);
    this.cw5 = new Float64Array(size);
    this.cw1 = new Float64Array(size);
    this.cr = new Float64Array(size);
    this.ws = new Float64Array(size);
    this.records = new Float64Array(size);
    this.unpriced = new Float64Array(size);
  }

  /** A run of records added up in `a`. */
  addRun(g: number, a: Acc): void {
    this.cost[g] = (this.cost[g] ?? 0) + a.cost;
    this.unpriced[g] = (this.unpriced[g] ?? 0) + a.unpriced;
    this.input[g] = (this.input[g] ?? 0) + a.input;
    this.output[g] = (this.output[g] ?? 0) + a.output;
    this.cw5[g] = (this.cw5[g] ?? 0) + a.cw5;
    this.cw1[g] = (this.cw1[g] ?? 0) + a.cw1;
    this.cr[g] = (this.cr[g] ?? 0) + a.cr;
    this.ws[g] = (this.ws[g] ?? 0) + a.ws;
    this.records[g] = (this.records[g] ?? 0) + a.records;
  }

  sum(g: number): CostSum {
    return {
      costMicros: this.cost[g] ?? 0,
      tokens: {
        input: this.input[g] ?? 0,
        output: this.output[g] ?? 0,
        cacheWrite5m: this.cw5[g] ?? 0,
        cacheWrite1h: this.cw1[g] ?? 0,
        cacheRead: this.cr[g] ?? 0,
        webSearches: this.ws[g] ?? 0,
      },
      records: this.records[g] ?? 0,
      unpricedRecords: this.unpriced[g] ?? 0,
    };
  }
}

export function report(f: FlatLedger, q: ReportQuery) {
  const { days, starts } = daysBetween(q.from, q.to);
  const wantSource = new Set(q.sources);
  const wantProject = q.projectPaths ? new Set(q.projectPaths) : null;
  // Which files count: decided once per file, not per record.
  const fileOk = Uint8Array.from(f.infos, (info, fi) =>
    wantSource.has(info.source) &&
    (wantProject === null || wantProject.has(must(f.sessions[f.fileSession[fi] ?? 0]).projectPath))
      ? 1
      : 0,
  );
  const D = days.length;
  const M = f.modelNames.length;
  const S = f.sessions.length;
  const g = new Groups(f, D);
  const { total, byDay, dayModelPairs, byModel, bySession, byTurn, first, last, subAgent } = g;
  const { sessionTurns, turnFirst, sessionModels } = g;
  const lo = starts[0] ?? 0;
  const hi = starts[starts.length - 1] ?? 0;
  sumRecords(f, starts, fileOk, g);
  const { dayModel } = g;

  const dayByModel = days.map((): Record<string, CostSum> => ({}));
  dayModelPairs.forEach((pair, slot) => {
    const d = Math.floor(pair / Math.max(1, M));
    setOwn(must(dayByModel[d]), f.modelNames[pair % M] ?? '', dayModel.sum(slot));
  });
  const models: ModelCost[] = [];
  for (let m = 0; m < M; m++)
    if ((byModel.records[m] ?? 0) > 0)
      models.push({ model: f.modelNames[m] ?? '', priced: byModel.unpriced[m] === 0, ...byModel.sum(m) });
  const sessions: SessionCostRow[] = [];
  for (let si = 0; si < S; si++) {
    if ((bySession.records[si] ?? 0) === 0) continue;
    const s = must(f.sessions[si]);
    const sum = bySession.sum(si);
    const inputSide =
      sum.tokens.input + sum.tokens.cacheWrite5m + sum.tokens.cacheWrite1h + sum.tokens.cacheRead;
    const a = first[si] ?? 0;
    const b = last[si] ?? 0;
    sessions.push({
      ...sum,
      source: s.source,
      sessionId: s.sessionId,
      title: s.title,
      projectPath: s.projectPath,
      models: [...(sessionModels[si] ?? [])].map((m) => f.modelNames[m] ?? '').sort(),
      cacheHitRatio: inputSide > 0 ? sum.tokens.cacheRead / inputSide : 0,
      subAgentCostMicros: subAgent[si] ?? 0,
      turns: sessionTurns[si] ?? 0,
      durationMs: Math.max(0, b - a),
      firstAt: new Date(a).toISOString(),
      lastAt: new Date(b).toISOString(),
    });
  }
  const top = topTurns(byTurn, turnFirst);
  const topModels = modelsOfTurns(f, top, lo, hi, fileOk);
  return {
    total: total.sum(0),
    days: days.map((day, d): DayCost => ({ day, byModel: must(dayByModel[d]), total: byDay.sum(d) })),
    models: models.sort(byCost),
    sessions: sessions.sort(byCost),
    topTurns: top.map((g): TurnCost => {
      const { session, turn } = must(f.turnGroups[g]);
      const s = must(f.sessions[session]);
      return {
        ...byTurn.sum(g),
        source: s.source,
        sessionId: s.sessionId,
        title: s.title,
        turn,
        at: new Date(turnFirst[g] ?? 0).toISOString(),
        models: [...(topModels.get(g) ?? [])].map((m) => f.modelNames[m] ?? '').sort(),
      };
    }),
  };
}

/*
 * The loops over every record are functions of their own: V8 compiles a hot loop while it runs
 * (on-stack replacement), and a loop inside a long function drags the whole function into that
 * compilation, which then falls back when the code after the loop runs for the first time.
 */

/**
 * Records of a file come one after another, a turn's together, mostly on one day and model: they
 * are added up in runs of the same day, model, file and turn, and each run is added to every group
 * at once (a fifth of the work of adding each record to each group).
 */
function sumRecords(f: FlatLedger, starts: readonly number[], fileOk: Uint8Array, g: Groups): void {
  const lo = starts[0] ?? 0;
  const hi = starts[starts.length - 1] ?? 0;
  const run = new Run();
  // The day of the previous record: most records fall on the same day as the one before.
  let dayLo = 0;
  let dayHi = -Infinity;
  let d = -1;
  for (let i = 0; i < f.n; i++) {
    const at = f.at[i] ?? 0;
    if (at < lo || at >= hi) continue;
    const fi = f.file[i] ?? 0;
    if (fileOk[fi] !== 1) continue;
    if (at < dayLo || at >= dayHi) {
      d = dayIndex(starts, at);
      dayLo = starts[d] ?? 0;
      dayHi = starts[d + 1] ?? 0;
    }
    const m = f.modelId[i] ?? 0;
    const tg = f.turnGroup[i] ?? -1;
    if (d !== run.day || m !== run.model || fi !== run.file || tg !== run.group) {
      g.add(run);
      run.start(d, m, fi, tg);
    }
    run.add(f, i);
    if (at < run.first) run.first = at;
    if (at > run.last) run.last = at;
  }
  g.add(run);
}

/** The most expensive turns, picked in one pass (sorting 20,000 turns for 20 costs more than the rest). */
function topTurns(byTurn: Sums, turnFirst: Float64Array): number[] {
  const before = (x: number, y: number) =>
    (byTurn.cost[y] ?? 0) - (byTurn.cost[x] ?? 0) || (turnFirst[x] ?? 0) - (turnFirst[y] ?? 0);
  const top: number[] = [];
  for (let g = 0; g < byTurn.records.length; g++) {
    if ((byTurn.records[g] ?? 0) === 0) continue;
    if (top.length === TOP_TURNS && before(g, top[TOP_TURNS - 1] ?? 0) >= 0) continue;
    // After every turn that ties with it: the order a stable sort by the same key would give.
    let at = top.length;
    while (at > 0 && before(g, top[at - 1] ?? 0) < 0) at--;
    top.splice(at, 0, g);
    if (top.length > TOP_TURNS) top.pop();
  }
  return top;
}

/** The models of just the top turns, within the report's days and files (a second, narrow pass). */
function modelsOfTurns(
  f: FlatLedger,
  top: number[],
  lo: number,
  hi: number,
  fileOk: Uint8Array,
): Map<number, Set<number>> {
  const topModels = new Map(top.map((g) => [g, new Set<number>()]));
  if (top.length === 0) return topModels;
  const isTop = new Uint8Array(f.turnGroups.length);
  for (const g of top) isTop[g] = 1;
  for (let i = 0; i < f.n; i++) {
    const g = f.turnGroup[i] ?? -1;
    if (g < 0 || isTop[g] !== 1) continue;
    const at = f.at[i] ?? 0;
    if (at >= lo && at < hi && fileOk[f.file[i] ?? 0] === 1) topModels.get(g)?.add(f.modelId[i] ?? 0);
  }
  return topModels;
}

function grown(s: Sums, size: number): Sums {
  const next = new Sums(size);
  for (const k of ['cost', 'input', 'output', 'cw5', 'cw1', 'cr', 'ws', 'records', 'unpriced'] as const)
    next[k].set(s[k]);
  return next;
}

function turnCost(f: FlatLedger, si: number, turn: number, t: TurnAcc): TurnCost {
  const s = must(f.sessions[si]);
  return {
    ...t.sum(),
    source: s.source,
    sessionId: s.sessionId,
    title: s.title,
    turn,
    at: new Date(t.at).toISOString(),
    models: [...t.models].map((m) => f.strings.get(m)).sort(),
  };
}

/**
 * A key of a plain object that comes from a transcript (a model id, a project folder): defined, not
 * assigned, so `__proto__` is a key like any other instead of replacing the object's prototype.
 * Sums are kept in Maps and arrays; only the report's shape is a plain object.
 */
function setOwn<T>(o: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

const byCost = (a: CostSum, b: CostSum) => b.costMicros - a.costMicros || b.records - a.records;

/** One session's cost view (Carapace's session of that id first, else Claude Code's). */
export function sessionDetail(
  f: FlatLedger,
  sessionId: string,
): Omit<SessionCostDetail, 'priceTable'> | null {
  let si = f.sessions.findIndex((s) => s.sessionId === sessionId && s.source === 'carapace');
  if (si < 0) si = f.sessions.findIndex((s) => s.sessionId === sessionId);
  if (si < 0) return null;
  const total = new Acc();
  const models = new Map<number, Acc>();
  const turns = new Map<number, TurnAcc>();
  /** By file index; -1 for the main agent (all its files, resumed or not). */
  const members = new Map<number, Acc>();
  for (let i = 0; i < f.n; i++) {
    const fi = f.file[i] ?? 0;
    if (f.fileSession[fi] !== si) continue;
    total.add(f, i);
    const m = f.model[i] ?? 0;
    let mm = models.get(m);
    if (!mm) models.set(m, (mm = new Acc()));
    mm.add(f, i);
    const turn = f.turn[i] ?? 0;
    if (turn > 0) {
      let t = turns.get(turn);
      if (!t) turns.set(turn, (t = new TurnAcc()));
      t.add(f, i);
      t.models.add(m);
      if ((f.at[i] ?? 0) < t.at) t.at = f.at[i] ?? 0;
    }
    const member = f.fileAgent[fi] === 1 ? fi : -1;
    let a = members.get(member);
    if (!a) members.set(member, (a = new Acc()));
    a.add(f, i);
  }
  const main: MemberCost = {
    agentId: null,
    name: 'Main agent',
    agentType: 'main',
    ...(members.get(-1) ?? new Acc()).sum(),
  };
  const byMember: MemberCost[] = [];
  for (const [fi, a] of members) {
    if (fi < 0) continue;
    const agent = must(f.infos[fi]).agent;
    if (!agent) continue;
    byMember.push({ agentId: agent.agentId, name: agent.name, agentType: agent.agentType, ...a.sum() });
  }
  return {
    sessionId,
    total: total.sum(),
    byModel: [...models]
      .map(([m, a]): ModelCost => ({ model: f.strings.get(m), priced: a.unpriced === 0, ...a.sum() }))
      .sort(byCost),
    byTurn: [...turns].sort((a, b) => a[0] - b[0]).map(([turn, t]) => turnCost(f, si, turn, t)),
    byMember: [main, ...byMember.sort(byCost)],
  };
}

/** What Carapace spent on one local day, everywhere and per project folder (for the daily budgets). */
export function daySpend(f: FlatLedger, day: Day): { allMicros: number; byProject: Record<string, number> } {
  const lo = dayStart(day);
  const hi = dayStart(day, 1);
  let allMicros = 0;
  const byProject = new Map<string, number>();
  for (let i = 0; i < f.n; i++) {
    const at = f.at[i] ?? 0;
    const c = f.cost[i] ?? 0;
    if (at < lo || at >= hi || c <= 0) continue;
    const fi = f.file[i] ?? 0;
    if (must(f.infos[fi]).source !== 'carapace') continue;
    const p = must(f.sessions[f.fileSession[fi] ?? 0]).projectPath;
    allMicros += c;
    byProject.set(p, (byProject.get(p) ?? 0) + c);
  }
  const out: Record<string, number> = {};
  for (const [p, micros] of byProject) setOwn(out, p, micros);
  return { allMicros, byProject: out };
}
