import { onUsageLine } from '../usage-feed';
import { telemetryConfig } from './config';
// Type-only: erased from the build, so the exporter itself is still loaded only by the import() below.
import type * as ExporterModule from './exporter';

/** A running export: flush before the process exits. */
export interface Telemetry {
  flush(): Promise<void>;
  /** Stops listening and sends what is left. */
  shutdown(): Promise<void>;
}

/**
 * Starts the optional OpenTelemetry export of cost and token counters, fed by every usage line this
 * process writes. Only when `CARAPACE_ENABLE_TELEMETRY=1` and an endpoint are set is the exporter
 * loaded at all (a dynamic import); otherwise this returns null and nothing is loaded or sent.
 */
export async function startTelemetry(
  env: NodeJS.ProcessEnv,
  load: () => Promise<typeof ExporterModule> = () => import('./exporter'),
): Promise<Telemetry | null> {
  const config = telemetryConfig(env);
  if (!config) return null;
  const { OtlpMetricsExporter } = await load();
  const exporter = new OtlpMetricsExporter(config);
  const stop = onUsageLine((line, from) => exporter.record(line, from));
  return {
    flush: () => exporter.flush(),
    async shutdown() {
      stop();
      await exporter.shutdown();
    },
  };
}
