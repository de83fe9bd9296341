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

  add(g: number, f: FlatLedger, i: number): void {
    const c = f.cost[i] ?? 0;
    if (c < 0) this.unpriced[g] = (this.unpriced[g] ?? 0) + 1;
    else this.cost[g] = (this.cost[g] ?? 0) + c;
    this.input[g] = (this.input[g] ?? 0) + (f.input[i] ?? 0);
    this.output[g] = (this.output[g] ?? 0) + (f.output[i] ?? 0);
    this.cw5[g] = (this.cw5[g] ?? 0) + (f.cw5[i] ?? 0);
    this.cw1[g] = (this.cw1[g] ?? 0) + (f.cw1[i] ?? 0);
    this.cr[g] = (this.cr[g] ?? 0) + (f.cr[i] ?? 0);
    this.ws[g] = (this.ws[g] ?? 0) + (f.ws[i] ?? 0);
    this.records[g] = (this.records[g] ?? 0) + 1;
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
  const total = new Sums(1);
  const byDay = new Sums(D);
  /** Day × model pairs that occur (few of all the pairs): each pair's slot in `dayModel`. */
  const dayModelSlot = new Map<number, number>();
  const dayModelPairs: number[] = [];
  const byModel = new Sums(M);
  const bySession = new Sums(S);
  const byTurn = new Sums(f.turnGroups.length);
  const first = new Float64Array(S).fill(Infinity);
  const last = new Float64Array(S).fill(-Infinity);
  const subAgent = new Float64Array(S);
  const sessionTurns = new Int32Array(S);
  const turnFirst = new Float64Array(f.turnGroups.length).fill(Infinity);
  const turnCounted = new Uint8Array(f.turnGroups.length);
  const sessionModels: (Set<number> | undefined)[] = new Array<Set<number> | undefined>(S);
  let dayModel = new Sums(Math.max(16, D));
  const lo = starts[0] ?? 0;
  const hi = starts[starts.length - 1] ?? 0;
  for (let i = 0; i < f.n; i++) {
    const at = f.at[i] ?? 0;
    if (at < lo || at >= hi) continue;
    const fi = f.file[i] ?? 0;
    if (fileOk[fi] !== 1) continue;
    const d = dayIndex(starts, at);
    const m = f.modelId[i] ?? 0;
    total.add(0, f, i);
    byDay.add(d, f, i);
    const pair = d * M + m;
    let slot = dayModelSlot.get(pair);
    if (slot === undefined) {
      slot = dayModelPairs.length;
      dayModelSlot.set(pair, slot);
      dayModelPairs.push(pair);
      if (slot >= dayModel.records.length) dayModel = grown(dayModel, slot * 2);
    }
    dayModel.add(slot, f, i);
    byModel.add(m, f, i);
    const si = f.fileSession[fi] ?? 0;
    bySession.add(si, f, i);
    let models = sessionModels[si];
    if (!models) sessionModels[si] = models = new Set();
    models.add(m);
    if (at < (first[si] ?? 0)) first[si] = at;
    if (at > (last[si] ?? 0)) last[si] = at;
    const isAgent = f.fileAgent[fi] === 1;
    const c = f.cost[i] ?? 0;
    if (isAgent && c > 0) subAgent[si] = (subAgent[si] ?? 0) + c;
    const g = f.turnGroup[i] ?? -1;
    if (g >= 0) {
      byTurn.add(g, f, i);
      if (at < (turnFirst[g] ?? 0)) turnFirst[g] = at;
      if (!isAgent && turnCounted[g] === 0) {
        turnCounted[g] = 1;
        sessionTurns[si] = (sessionTurns[si] ?? 0) + 1;
      }
    }
  }

  const dayByModel = days.map((): Record<string, CostSum> => ({}));
  dayModelPairs.forEach((pair, slot) => {
    const d = Math.floor(pair / Math.max(1, M));
    must(dayByModel[d])[f.modelNames[pair % M] ?? ''] = dayModel.sum(slot);
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
  // The most expensive turns, then the models of just those (a second, narrow pass).
  const top: number[] = [];
  for (let g = 0; g < f.turnGroups.length; g++) if ((byTurn.records[g] ?? 0) > 0) top.push(g);
  top.sort(
    (x, y) => (byTurn.cost[y] ?? 0) - (byTurn.cost[x] ?? 0) || (turnFirst[x] ?? 0) - (turnFirst[y] ?? 0),
  );
  top.length = Math.min(top.length, TOP_TURNS);
  const topModels = new Map(top.map((g) => [g, new Set<number>()]));
  for (let i = 0; i < f.n && top.length > 0; i++) {
    const set = topModels.get(f.turnGroup[i] ?? -1);
    const at = f.at[i] ?? 0;
    if (set && at >= lo && at < hi && fileOk[f.file[i] ?? 0] === 1) set.add(f.modelId[i] ?? 0);
  }
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
  const byProject: Record<string, number> = {};
  for (let i = 0; i < f.n; i++) {
    const at = f.at[i] ?? 0;
    const c = f.cost[i] ?? 0;
    if (at < lo || at >= hi || c <= 0) continue;
    const fi = f.file[i] ?? 0;
    if (must(f.infos[fi]).source !== 'carapace') continue;
    const p = must(f.sessions[f.fileSession[fi] ?? 0]).projectPath;
    allMicros += c;
    byProject[p] = (byProject[p] ?? 0) + c;
  }
  return { allMicros, byProject };
}
