import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testEngine, text } from '../../../test-support/engine';
import { parseHeaders, telemetryConfig } from './config';
import { startTelemetry } from './index';

/** A real OTLP/HTTP collector stand-in: records every POST it receives. */
async function collector() {
  const received: { url: string; headers: IncomingHttpHeaders; body: unknown }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

interface DataPoint {
  attributes: { key: string; value: { stringValue: string } }[];
  asDouble?: number;
  asInt?: string;
  startTimeUnixNano: string;
  timeUnixNano: string;
}
interface Metric {
  name: string;
  unit: string;
  sum: { aggregationTemporality: number; isMonotonic: boolean; dataPoints: DataPoint[] };
}
const metricsOf = (body: unknown): Metric[] =>
  (body as { resourceMetrics: { scopeMetrics: { metrics: Metric[] }[] }[] }).resourceMetrics.flatMap((r) =>
    r.scopeMetrics.flatMap((s) => s.metrics),
  );
const attrs = (p: DataPoint) => Object.fromEntries(p.attributes.map((a) => [a.key, a.value.stringValue]));

/** A two-response session on Sonnet 4.5 ($3 in, $15 out, $3.75 5 min write, $0.30 read per MTok). */
async function session() {
  const t = await testEngine({
    steps: [
      {
        reply: {
          id: 'msg_a',
          content: [text('One.')],
          usage: {
            input_tokens: 1000,
            output_tokens: 200,
            cache_creation_input_tokens: 400,
            cache_read_input_tokens: 3000,
          },
        },
      },
      { reply: { id: 'msg_b', content: [text('Two.')], usage: { input_tokens: 10, output_tokens: 20 } } },
    ],
  });
  await t.run('first');
  await t.run('second');
  return t;
}

function countingLoader() {
  const calls = { n: 0 };
  const load = () => {
    calls.n++;
    return import('./exporter');
  };
  return { calls, load };
}

describe('OpenTelemetry export of cost and token counters', () => {
  it('sends cumulative counters with exact values to {endpoint}/v1/metrics, with the configured headers', async () => {
    const c = await collector();
    const { calls, load } = countingLoader();
    const telemetry = await startTelemetry(
      {
        CARAPACE_ENABLE_TELEMETRY: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: `${c.url}/`,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-team=cost%20team, authorization=Bearer abc',
      },
      load,
    );
    expect(calls.n).toBe(1);
    const t = await session();
    await telemetry?.shutdown();

    expect(c.received).toHaveLength(1);
    const [sent] = c.received;
    expect(sent?.url).toBe('/v1/metrics');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['x-team']).toBe('cost team');
    expect(sent?.headers['authorization']).toBe('Bearer abc');

    const metrics = metricsOf(sent?.body);
    const cost = metrics.find((m) => m.name === 'carapace.cost.usage');
    expect(cost?.unit).toBe('USD');
    expect(cost?.sum.aggregationTemporality).toBe(2);
    expect(cost?.sum.isMonotonic).toBe(true);
    expect(cost?.sum.dataPoints).toHaveLength(1);
    const micros = 1000 * 3 + 200 * 15 + 400 * 3.75 + 3000 * 0.3 + (10 * 3 + 20 * 15);
    expect(cost?.sum.dataPoints[0]?.asDouble).toBe(micros / 1e6);
    expect(attrs(cost!.sum.dataPoints[0]!)).toEqual({
      model: 'claude-sonnet-4-5',
      'session.id': t.options.sessionId,
    });

    const tokens = metrics.find((m) => m.name === 'carapace.token.usage');
    const byType = Object.fromEntries(tokens!.sum.dataPoints.map((p) => [attrs(p)['type'], p.asInt]));
    expect(byType).toEqual({ input: '1010', output: '220', cacheRead: '3000', cacheCreation: '400' });
    for (const p of tokens!.sum.dataPoints) {
      expect(attrs(p)).toMatchObject({ model: 'claude-sonnet-4-5', 'session.id': t.options.sessionId });
      expect(BigInt(p.timeUnixNano)).toBeGreaterThanOrEqual(BigInt(p.startTimeUnixNano));
    }
  });

  it('uses OTEL_EXPORTER_OTLP_METRICS_ENDPOINT as is, and flushes every OTEL_METRIC_EXPORT_INTERVAL ms', async () => {
    const c = await collector();
    const telemetry = await startTelemetry({
      CARAPACE_ENABLE_TELEMETRY: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/ignored',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${c.url}/custom/path`,
      OTEL_METRIC_EXPORT_INTERVAL: '50',
    });
    onTestFinished(() => telemetry?.shutdown());
    await session();
    // The timer sends while the session runs; wait until a send carries both responses' tokens.
    const outputTokens = () => {
      const last = c.received.at(-1);
      const tokens = last ? metricsOf(last.body).find((m) => m.name === 'carapace.token.usage') : undefined;
      return tokens?.sum.dataPoints.find((p) => attrs(p)['type'] === 'output')?.asInt;
    };
    const deadline = Date.now() + 5000;
    while (outputTokens() !== '220' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(outputTokens()).toBe('220');
    expect(c.received.every((r) => r.url === '/custom/path')).toBe(true);
    // Nothing new counted: the timer sends nothing more, and shutdown has nothing left to send.
    const before = c.received.length;
    await new Promise((r) => setTimeout(r, 150));
    await telemetry?.shutdown();
    expect(c.received.length).toBe(before);
  });

  it('without the flag, or without an endpoint, loads nothing and sends nothing', async () => {
    const c = await collector();
    const { calls, load } = countingLoader();
    expect(await startTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: c.url }, load)).toBeNull();
    expect(
      await startTelemetry({ CARAPACE_ENABLE_TELEMETRY: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: c.url }, load),
    ).toBeNull();
    expect(await startTelemetry({ CARAPACE_ENABLE_TELEMETRY: '1' }, load)).toBeNull();
    expect(calls.n).toBe(0);
    await session();
    await new Promise((r) => setTimeout(r, 100));
    expect(c.received).toEqual([]);
  });

  it('a collector that is down never breaks the session; the counts go with the next send', async () => {
    const telemetry = await startTelemetry({
      CARAPACE_ENABLE_TELEMETRY: '1',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://127.0.0.1:9/v1/metrics',
    });
    const t = await session();
    expect(t.engine.cost.snapshot().totalCostMicros).toBeGreaterThan(0);
    await expect(telemetry?.shutdown()).resolves.toBeUndefined();
  });
});

describe('telemetry configuration', () => {
  it('reads headers as k=v pairs, URL-decoded, skipping malformed ones', () => {
    expect(parseHeaders('a=1, b = two%3D2 ,=x,noeq,bad key=1,c=')).toEqual({ a: '1', b: 'two=2', c: '' });
  });

  it('takes a positive integer interval, else 60 s; refuses a non-http endpoint', () => {
    const on = { CARAPACE_ENABLE_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318' };
    expect(telemetryConfig(on)).toEqual({ url: 'http://h:4318/v1/metrics', headers: {}, intervalMs: 60_000 });
    expect(telemetryConfig({ ...on, OTEL_METRIC_EXPORT_INTERVAL: '2500' })?.intervalMs).toBe(2500);
    expect(telemetryConfig({ ...on, OTEL_METRIC_EXPORT_INTERVAL: '-5' })?.intervalMs).toBe(60_000);
    expect(telemetryConfig({ ...on, OTEL_EXPORTER_OTLP_ENDPOINT: 'file:///etc/passwd' })).toBeNull();
  });
});
