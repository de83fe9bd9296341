/**
 * When cost and token counters are exported over OpenTelemetry (OTLP/HTTP, JSON). Off unless the
 * person opts in: `CARAPACE_ENABLE_TELEMETRY=1` AND an endpoint. Read without loading the exporter.
 */
export interface TelemetryConfig {
  /** Where the metrics are POSTed. */
  url: string;
  headers: Record<string, string>;
  intervalMs: number;
}

export const DEFAULT_EXPORT_INTERVAL_MS = 60_000;

/**
 * `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` is used as is (the spec: a signal-specific URL is complete);
 * `OTEL_EXPORTER_OTLP_ENDPOINT` gets `/v1/metrics` appended. Null when telemetry is off or no
 * endpoint is set, or the endpoint is not an http(s) URL.
 */
export function telemetryConfig(env: NodeJS.ProcessEnv): TelemetryConfig | null {
  if (env['CARAPACE_ENABLE_TELEMETRY'] !== '1') return null;
  const metrics = env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']?.trim();
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  const url = metrics ? metrics : base ? `${base.replace(/\/+$/, '')}/v1/metrics` : null;
  if (url === null || !/^https?:\/\//i.test(url)) return null;
  return {
    url,
    headers: parseHeaders(env['OTEL_EXPORTER_OTLP_HEADERS'] ?? ''),
    intervalMs: intervalFrom(env['OTEL_METRIC_EXPORT_INTERVAL']),
  };
}

/** `k=v,k2=v2` (values URL-encoded, per the OTLP exporter spec); malformed pairs are skipped. */
export function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) continue;
    let value = pair.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all: taken as written.
    }
    headers[key] = value;
  }
  return headers;
}

function intervalFrom(raw: string | undefined): number {
  const n = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isInteger(n) && n > 0
    ? n
    : DEFAULT_EXPORT_INTERVAL_MS;
}
