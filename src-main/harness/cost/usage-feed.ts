import type { UsageLine } from './usage-line';

/** Who wrote a usage line: the session, and the agent in it (the session's id for the main agent). */
export interface UsageSource {
  sessionId: string;
  agentId: string;
}

export type UsageListener = (line: UsageLine, from: UsageSource) => void;

const listeners = new Set<UsageListener>();

/**
 * Every usage line as it is written, in this process: for exporters (OpenTelemetry) that must see
 * each response once without reading transcripts back. Returns the way to stop listening.
 */
export function onUsageLine(listener: UsageListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the conversation that wrote the line. A listener that throws never breaks a session. */
export function publishUsageLine(line: UsageLine, from: UsageSource): void {
  for (const listener of listeners) {
    try {
      listener(line, from);
    } catch {
      // An exporter's bug must not fail the turn that paid for the response.
    }
  }
}
