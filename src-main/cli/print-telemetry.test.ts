import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realpathSync } from 'node:fs';
import { expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { text } from '../test-support/engine';
import { capturePrint, lastJsonLine } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';

/*
 * carapace -p with the OpenTelemetry export on: the run's counters reach the collector before
 * runPrint returns (the process exits right after), and equal the run's own result.
 */
it('sends the run’s cost and tokens to the OTLP endpoint before it exits', async () => {
  const bodies: string[] = [];
  const collector = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => collector.close(() => resolve())));
  const api = await startScriptedApi({
    scenario: {
      steps: [
        { reply: { id: 'msg_p', content: [text('Hi.')], usage: { input_tokens: 2000, output_tokens: 300 } } },
      ],
    },
  });
  onTestFinished(() => api.close());
  const home = tempDir('carapace-otel-home-');
  const { code, out } = await capturePrint(
    ['-p', 'hello', '--output-format', 'json', '--model', 'claude-haiku-4-5'],
    {
      env: {
        CARAPACE_HOME: home,
        HOME: home,
        ANTHROPIC_API_KEY: 'test',
        ANTHROPIC_BASE_URL: api.url,
        CARAPACE_ENABLE_TELEMETRY: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      },
      cwd: realpathSync(tempDir('carapace-otel-project-')),
    },
  );
  expect(code).toBe(0);
  const result = lastJsonLine(out) as { total_cost_usd: number };
  // Haiku 4.5: $1 / M input, $5 / M output.
  expect(result.total_cost_usd).toBe((2000 * 1 + 300 * 5) / 1e6);
  expect(bodies).toHaveLength(1);
  const sent = JSON.stringify(JSON.parse(bodies[0] ?? '{}'));
  expect(sent).toContain(`"name":"carapace.cost.usage"`);
  expect(sent).toContain(`"asDouble":${result.total_cost_usd}`);
  expect(sent).toContain(`{"key":"type","value":{"stringValue":"input"}}`);
  expect(sent).toContain(`"asInt":"2000"`);
});
