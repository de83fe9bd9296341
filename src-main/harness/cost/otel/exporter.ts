import type { UsageLine } from '../usage-line';
import type { UsageSource } from '../usage-feed';
import type { TelemetryConfig } from './config';

/*
 * A hand-written OTLP/HTTP metrics exporter (JSON encoding), so telemetry adds no dependency and
 * nothing is loaded unless it is switched on. Two monotonic counters with cumulative temporality:
 *   carapace.cost.usage   USD     attributes: model, session.id
 *   carapace.token.usage  tokens  attributes: type (input|output|cacheRead|cacheCreation), model, session.id
 * Shape from opentelemetry-proto metrics.proto's JSON mapping: 64-bit integers as decimal strings,
 * enums as numbers (AGGREGATION_TEMPORALITY_CUMULATIVE = 2).
 */

const CUMULATIVE = 2;
const SEND_TIMEOUT_MS = 10_000;
export const COST_METRIC = 'carapace.cost.usage';
export const TOKEN_METRIC = 'carapace.token.usage';
const TOKEN_TYPES = ['input', 'output', 'cacheRead', 'cacheCreation'] as const;

type Attributes = Record<string, string>;
interface Point {
  attributes: Attributes;
  /** Integers: micro-dollars for cost (shown as USD when sent), tokens for tokens. */
  value: number;
}

const nanos = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;
const otlpAttributes = (a: Attributes) =>
  Object.entries(a).map(([key, value]) => ({ key, value: { stringValue: value } }));

export class OtlpMetricsExporter {
  private readonly cost = new Map<string, Point>();
  private readonly tokens = new Map<string, Point>();
  private readonly startedMs = Date.now();
  private readonly timer: NodeJS.Timeout;
  /** Something was counted since the last send that reached the collector. */
  private dirty = false;
  private sending: Promise<void> = Promise.resolve();
  /** The last send's failure, for diagnostics; a failing collector never disturbs a session. */
  lastError: string | null = null;

  constructor(
    private readonly config: TelemetryConfig,
    private readonly resource: Attributes = { 'service.name': 'carapace' },
  ) {
    this.timer = setInterval(() => void this.flush(), config.intervalMs);
    // The export timer never keeps a finished process alive; exit flushes explicitly.
    this.timer.unref();
  }

  /** Counts one usage line (one API response). Unpriced responses add tokens but no cost. */
  record(line: UsageLine, from: UsageSource): void {
    const base = { model: line.model, 'session.id': from.sessionId };
    if (line.costMicros !== null) add(this.cost, base, line.costMicros);
    const t = line.tokens;
    const byType: Record<(typeof TOKEN_TYPES)[number], number> = {
      input: t.input,
      output: t.output,
      cacheRead: t.cacheRead,
      cacheCreation: t.cacheWrite5m + t.cacheWrite1h,
    };
    for (const type of TOKEN_TYPES) add(this.tokens, { type, ...base }, byType[type]);
    this.dirty = true;
  }

  /** The request body of an export now (cumulative: every point since the exporter started). */
  body(nowMs = Date.now()): unknown {
    const points = (m: Map<string, Point>, scale: number, asInt: boolean) =>
      [...m.values()].map((p) => ({
        attributes: otlpAttributes(p.attributes),
        startTimeUnixNano: nanos(this.startedMs),
        timeUnixNano: nanos(nowMs),
        ...(asInt ? { asInt: String(p.value) } : { asDouble: p.value / scale }),
      }));
    const sum = (dataPoints: unknown[]) => ({
      aggregationTemporality: CUMULATIVE,
      isMonotonic: true,
      dataPoints,
    });
    return {
      resourceMetrics: [
        {
          resource: { attributes: otlpAttributes(this.resource) },
          scopeMetrics: [
            {
              scope: { name: 'carapace.cost' },
              metrics: [
                {
                  name: COST_METRIC,
                  description: 'Estimated cost of API responses, from the price table',
                  unit: 'USD',
                  sum: sum(points(this.cost, 1e6, false)),
                },
                {
                  name: TOKEN_METRIC,
                  description: 'Tokens of API responses, by kind',
                  unit: 'tokens',
                  sum: sum(points(this.tokens, 1, true)),
                },
              ],
            },
          ],
        },
      ],
    };
  }

  /** Sends the counters if anything was counted since the last successful send. Never throws. */
  flush(): Promise<void> {
    this.sending = this.sending.then(() => this.send());
    return this.sending;
  }

  /** Stops the timer and sends what is left (at exit). */
  async shutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async send(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      const res = await fetch(this.config.url, {
        method: 'POST',
        headers: { ...this.config.headers, 'content-type': 'application/json' },
        body: JSON.stringify(this.body()),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`the collector answered ${res.status}`);
      this.lastError = null;
    } catch (error) {
      // Cumulative sums: the next send carries these counts again.
      this.dirty = true;
      this.lastError = `OpenTelemetry export to ${this.config.url} failed: ${(error as Error).message}`;
    }
  }
}

function add(m: Map<string, Point>, attributes: Attributes, value: number): void {
  const key = JSON.stringify(attributes);
  const p = m.get(key);
  if (p) p.value += value;
  else m.set(key, { attributes, value });
}
