import type { UsageReport } from '../cost/tracker';
import type { UsageLine } from '../cost/usage-line';
import { MessageAccumulator, type AccumulatedMessage } from './accumulate';
import type { ModelClient, ModelRequest, RawStreamEvent } from './model-client';

/**
 * One model call outside the query loop (the memory selector, a consolidation): streamed to its
 * whole message, with what it cost reported as the cost tracker takes it, so the session pays for it.
 */
export async function sideRequest(
  client: ModelClient,
  request: ModelRequest,
  signal: AbortSignal,
  onUsage: ((report: UsageReport) => void) | undefined,
  /** What it is for: its usage line says so (the session's cost view shows it apart from turns). */
  purpose: Exclude<UsageLine['purpose'], 'turn'>,
  /** Sees every raw event, for what the accumulator does not keep (a server tool's result blocks). */
  onEvent?: (event: RawStreamEvent) => void,
): Promise<AccumulatedMessage> {
  const acc = new MessageAccumulator();
  const started = performance.now();
  for await (const event of client.stream(request, signal)) {
    onEvent?.(event);
    acc.apply(event);
  }
  const m = acc.message;
  onUsage?.({
    model: m.model ?? request.model,
    apiId: m.id,
    usage: m.usage,
    cacheWrite1hTokens: m.cacheWrite1hTokens,
    webSearchRequests: m.webSearchRequests,
    durationMs: Math.round(performance.now() - started),
    purpose,
  });
  return m;
}
