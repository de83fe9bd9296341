import { z } from 'zod';
import type { TokenCounts } from '@shared/domain/cost-report';
import type { TokenUsage } from '@shared/domain/usage';
import { priceResponse, tokenCountsOf } from './pricing';
import type { UsageLine } from './usage-line';

export const ModelUsageEntry = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadInputTokens: z.number(),
  cacheCreationInputTokens: z.number(),
  /** Of `cacheCreationInputTokens`, the 1 h writes (they cost more than 5 min ones); absent in old snapshots. */
  cacheCreation1hInputTokens: z.number().optional(),
  webSearchRequests: z.number(),
  costUSD: z.number(),
  costMicros: z.number().int(),
  /** False for a model the price table does not know: its cost is not in the total. */
  priced: z.boolean(),
});
export type ModelUsageEntry = z.infer<typeof ModelUsageEntry>;

export const CostSnapshot = z.object({
  sessionId: z.string(),
  totalCostMicros: z.number().int(),
  apiDurationMs: z.number(),
  modelUsage: z.record(z.string(), ModelUsageEntry),
});
export type CostSnapshot = z.infer<typeof CostSnapshot>;

export interface UsageReport {
  model: string;
  apiId: string | null;
  usage: TokenUsage;
  cacheWrite1hTokens?: number;
  webSearchRequests?: number;
  durationMs?: number;
  /** What the request was for; a response of the turn's own loop when absent. */
  purpose?: UsageLine['purpose'];
}

/**
 * Usage and cost of a session, per model, in integer micro-dollars so sums never drift. Each API
 * message counts once, by id, however often its usage is reported.
 */
export class CostTracker {
  private readonly buckets = new Map<string, ModelUsageEntry>();
  private readonly seen = new Set<string>();
  private micros = 0;
  private apiMs = 0;

  constructor(readonly sessionId: string) {}

  /** Adds one response's final usage; returns false when that message id was already counted. */
  add(report: UsageReport): boolean {
    const searches = report.webSearchRequests ?? 0;
    const tokens = tokenCountsOf(report.usage, report.cacheWrite1hTokens ?? 0, searches);
    // Web searches are priced by the table too; the usage line of the same response has this figure.
    const cost = priceResponse(report.model, tokens);
    const micros = cost.kind === 'priced' ? cost.micros : cost.kind === 'demo' ? 0 : null;
    return this.count(report.apiId, report.model, tokens, micros, report.durationMs);
  }

  get totalCostUsd(): number {
    return this.micros / 1e6;
  }

  get unpricedModels(): string[] {
    return [...this.buckets].filter(([, b]) => !b.priced).map(([m]) => m);
  }

  get apiDurationMs(): number {
    return this.apiMs;
  }

  totalUsage(): TokenUsage {
    const t: TokenUsage = {
      inputTokens: 0,
      outputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
    };
    for (const b of this.buckets.values()) {
      t.inputTokens += b.inputTokens;
      t.outputTokens += b.outputTokens;
      t.cacheCreationInputTokens += b.cacheCreationInputTokens;
      t.cacheReadInputTokens += b.cacheReadInputTokens;
    }
    return t;
  }

  modelUsage(): Record<string, ModelUsageEntry> {
    return Object.fromEntries([...this.buckets].map(([m, b]) => [m, { ...b }]));
  }

  snapshot(): CostSnapshot {
    return {
      sessionId: this.sessionId,
      totalCostMicros: this.micros,
      apiDurationMs: Math.round(this.apiMs),
      modelUsage: this.modelUsage(),
    };
  }

  /**
   * Adds a response as its transcript's usage line has it (priced when it arrived: a resumed session
   * keeps the figures the ledger shows); returns false when that message id was already counted.
   */
  addLine(line: UsageLine): boolean {
    return this.count(line.apiId, line.model, line.tokens, line.costMicros, line.durationMs);
  }

  /** One response into its model's bucket; `micros` null: a model the price table does not know. */
  private count(
    apiId: string | null,
    model: string,
    t: TokenCounts,
    micros: number | null,
    durationMs: number | undefined,
  ): boolean {
    if (apiId !== null) {
      if (this.seen.has(apiId)) return false;
      this.seen.add(apiId);
    }
    const b = this.buckets.get(model) ?? {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheCreation1hInputTokens: 0,
      webSearchRequests: 0,
      costUSD: 0,
      costMicros: 0,
      priced: micros !== null,
    };
    b.inputTokens += t.input;
    b.outputTokens += t.output;
    b.cacheReadInputTokens += t.cacheRead;
    b.cacheCreationInputTokens += t.cacheWrite5m + t.cacheWrite1h;
    b.cacheCreation1hInputTokens = (b.cacheCreation1hInputTokens ?? 0) + t.cacheWrite1h;
    b.webSearchRequests += t.webSearches;
    b.costMicros += micros ?? 0;
    b.costUSD = b.costMicros / 1e6;
    this.buckets.set(model, b);
    this.micros += micros ?? 0;
    this.apiMs += durationMs ?? 0;
    return true;
  }

  /** A message id already in a restored snapshot: a repeat report of it is not counted again. */
  markCounted(apiId: string): void {
    this.seen.add(apiId);
  }

  /** Takes a saved snapshot's totals, but only one saved for this very session. */
  restore(snapshot: CostSnapshot): boolean {
    if (snapshot.sessionId !== this.sessionId) return false;
    this.buckets.clear();
    for (const [m, b] of Object.entries(snapshot.modelUsage)) this.buckets.set(m, { ...b });
    this.micros = snapshot.totalCostMicros;
    this.apiMs = snapshot.apiDurationMs;
    return true;
  }
}
