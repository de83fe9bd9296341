import type { HttpHook } from './schema';
import { capOutput, parseOutputJson, type HandlerResult } from './output';

/**
 * Fills `$VAR` and `${VAR}` in a header value from the environment, but only for the names the hook
 * lists in `allowedEnvVars`; any other variable becomes empty, so a repository's hook cannot send
 * the person's secrets anywhere by naming them.
 */
export function fillHeader(value: string, allowed: readonly string[], env: NodeJS.ProcessEnv): string {
  const ok = new Set(allowed);
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced, bare) => {
    const name = (braced ?? bare) as string;
    return ok.has(name) ? (env[name] ?? '') : '';
  });
}

/** Bytes of an http hook's answer read at most: enough for any JSON worth reading. */
const MAX_BODY_BYTES = 1_000_000;

/** The body as text, cut at MAX_BODY_BYTES (`over`: it ran past them; the rest is left unread). */
async function readBody(res: Response): Promise<{ text: string; over: boolean }> {
  if (!res.body) return { text: '', over: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      chunks.push(value.subarray(0, value.byteLength - (total - MAX_BODY_BYTES)));
      return { text: Buffer.concat(chunks).toString('utf8'), over: true };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), over: false };
}

/**
 * Runs an http hook: POSTs the event JSON. A 2xx with an empty body is success; a 2xx with JSON is
 * read like a command hook's output; any other answer, a non-2xx status or a failed connection is a
 * non-blocking error (an http hook blocks only through its JSON).
 */
export async function runHttpHook(
  handler: HttpHook,
  input: object,
  o: { env: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<HandlerResult> {
  const started = performance.now();
  const done = (r: Omit<HandlerResult, 'durationMs'>): HandlerResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  /** Every answer but a usable one: no JSON to act on, the problem said, what was read kept. */
  const failed = (problem: string, stdout = '', status: 'error' | 'timeout' = 'error') =>
    done({ status, exitCode: null, stdout, stderr: '', json: null, problem });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [k, v] of Object.entries(handler.headers ?? {}))
    headers[k] = fillHeader(v, handler.allowedEnvVars ?? [], o.env);
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([timeout, o.signal]) : timeout;
  let status: number;
  let body: string;
  let over: boolean;
  try {
    // A redirect is not followed: it would carry the event and the filled headers (a token) on to
    // whatever host it names, which is not the address the hook was accepted with.
    const res = await fetch(handler.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(input),
      signal,
      redirect: 'manual',
    });
    status = res.status;
    if (status >= 300 && status <= 399) {
      await res.body?.cancel().catch(() => undefined);
      return failed(
        `answered HTTP ${status}, a redirect${res.headers.get('location') ? ` to ${res.headers.get('location')?.slice(0, 200)}` : ''}, which is not followed`,
      );
    }
    // A server that answers forever is cut at the cap, not read until the timeout fills the heap.
    ({ text: body, over } = await readBody(res));
  } catch (error) {
    if (timeout.aborted) return failed(`timed out after ${o.timeoutMs / 1000} s`, '', 'timeout');
    return failed(`POST ${handler.url} failed: ${(error as Error).message}`);
  }
  const stdout = capOutput(body);
  if (over)
    return failed(
      `answered with more than ${MAX_BODY_BYTES.toLocaleString('en-US')} bytes; the rest was not read`,
      stdout,
    );
  if (status < 200 || status > 299) return failed(`answered HTTP ${status}`, stdout);
  if (body.trim() === '') return done({ status: 'ok', exitCode: null, stdout, stderr: '', json: null });
  const parsed = parseOutputJson(body);
  if (parsed.json) return done({ status: 'ok', exitCode: null, stdout, stderr: '', json: parsed.json });
  return failed(parsed.problem ?? 'answered with a body that is not JSON', stdout);
}
