import { z } from 'zod';
import type { TokenUsage } from '@shared/domain/usage';
import { costOf } from './pricing';

/** $10 per 1,000 web searches. */
const WEB_SEARCH_MICROS = 10_000;

export const ModelUsageEntry = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadInputTokens: z.number(),
  cacheCreationInputTokens: z.number(),
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
    if (report.apiId !== null) {
      if (this.seen.has(report.apiId)) return false;
      this.seen.add(report.apiId);
    }
    const cost = costOf(report.model, report.usage, report.cacheWrite1hTokens ?? 0);
    const searches = report.webSearchRequests ?? 0;
    const micros = cost.kind === 'priced' ? Math.round(cost.usd * 1e6) + searches * WEB_SEARCH_MICROS : 0;
    const b = this.buckets.get(report.model) ?? {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: 0,
      costMicros: 0,
      priced: cost.kind !== 'unpriced',
    };
    b.inputTokens += report.usage.inputTokens;
    b.outputTokens += report.usage.outputTokens;
    b.cacheReadInputTokens += report.usage.cacheReadInputTokens;
    b.cacheCreationInputTokens += report.usage.cacheCreationInputTokens;
    b.webSearchRequests += searches;
    b.costMicros += micros;
    b.costUSD = b.costMicros / 1e6;
    this.buckets.set(report.model, b);
    this.micros += micros;
    this.apiMs += report.durationMs ?? 0;
    return true;
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
