import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { describeApiError, StreamIncompleteError, type DescribedApiError } from './api-errors';

export type ErrorClass =
  | { kind: 'aborted'; described: DescribedApiError }
  | { kind: 'prompt_too_long'; described: DescribedApiError }
  /** 529 / overloaded_error: retried, and after a few, a reason to fall back to another model. */
  | { kind: 'overloaded'; described: DescribedApiError; retryAfterMs: number | null }
  | { kind: 'retryable'; described: DescribedApiError; retryAfterMs: number | null }
  | { kind: 'fatal'; described: DescribedApiError };

const RETRYABLE_STATUS = (s: number) => s === 408 || s === 409 || s === 429 || s >= 500;
const RETRYABLE_SSE_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

function header(error: APIError, name: string): string | null {
  return error.headers?.get(name) ?? null;
}

/** `retry-after-ms` wins, then `retry-after` in seconds or as an HTTP date; null when absent. */
export function retryAfterMs(error: APIError, now = Date.now()): number | null {
  const ms = header(error, 'retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = header(error, 'retry-after');
  if (after === null) return null;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * Sorts a failed model call: what to retry (408/409/429/5xx, connection resets, SSE errors of a
 * retryable type — the SDK does not retry those itself), what to recover from (prompt too long),
 * and what to surface at once (400/401/403, …).
 */
export function classifyError(error: unknown): ErrorClass {
  const described = describeApiError(error);
  if (error instanceof APIUserAbortError) return { kind: 'aborted', described };
  if (
    error instanceof APIConnectionError ||
    error instanceof StreamIncompleteError ||
    described.code === 'connection_error'
  ) {
    return { kind: 'retryable', described, retryAfterMs: null };
  }
  if (error instanceof APIError) {
    const e = error as APIError;
    if (e.status === 400 && /prompt is too long/i.test(e.message))
      return { kind: 'prompt_too_long', described };
    const shouldRetry = header(e, 'x-should-retry');
    const after = retryAfterMs(e);
    if (e.status === 529 || described.code === 'overloaded_error') {
      return shouldRetry === 'false'
        ? { kind: 'fatal', described }
        : { kind: 'overloaded', described, retryAfterMs: after };
    }
    if (shouldRetry === 'false') return { kind: 'fatal', described };
    if (shouldRetry === 'true') return { kind: 'retryable', described, retryAfterMs: after };
    if (e.status === undefined && RETRYABLE_SSE_TYPES.has(described.code))
      return { kind: 'retryable', described, retryAfterMs: after };
    if (e.status !== undefined && RETRYABLE_STATUS(e.status))
      return { kind: 'retryable', described, retryAfterMs: after };
  }
  return { kind: 'fatal', described };
}

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … capped at 32 s, each up to 25 % shorter. */
export function backoffMs(attempt: number, random = Math.random): number {
  return Math.round(Math.min(500 * 2 ** attempt, 32_000) * (1 - random() * 0.25));
}

/** Longest wait a retry-after may impose before we say so instead of waiting. */
export const MAX_RETRY_AFTER_MS = 5 * 60 * 1000;

/** Sleeps, or rejects with the abort reason as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new APIUserAbortError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
