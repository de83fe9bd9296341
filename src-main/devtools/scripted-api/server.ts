import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseScenario, type ScenarioInput } from './scenario';
import { type MessagesRequestBody, type RecordedRequest, requestChars, lastUserText } from './request';
import { scenarioResponder, type Responder, type ScriptedReply } from './responder';
import { encodeSse, newId, replyEvents, replyJson, replyUsage } from './sse';

export interface ScriptedApiOptions {
  /** A scenario (validated here) or a responder function. */
  scenario: ScenarioInput | Responder;
  port?: number;
  host?: string;
  /** When set, requests must carry this key (`x-api-key` or bearer), else 401. Overrides the scenario's. */
  apiKey?: string;
}

export interface ScriptedApi {
  readonly url: string;
  readonly port: number;
  /** Every request received, in order, for tests to assert what the client sent. */
  readonly requests: readonly RecordedRequest[];
  /** Opens a gate: replies held at it (`hold`) go on, and later ones pass it without stopping. */
  release(gate: string): void;
  /** Replace the scenario; recorded requests and the request counter are kept. */
  setScenario(scenario: ScenarioInput | Responder): void;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024 * 1024;

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': newId('req'),
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendApiError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers?: Record<string, string>,
): void {
  sendJson(res, status, { type: 'error', error: { type, message }, request_id: newId('req') }, headers);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** The key a client sent: `x-api-key`, or a bearer token (what SDK 1.x sends for an API key). */
function presentedKey(req: IncomingMessage): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string') return header;
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * An HTTP server on 127.0.0.1 that speaks the Messages API's streaming protocol and replays a scenario.
 * Tests, e2e runs, benchmarks and the demo model all talk to it through the real `@anthropic-ai/sdk`.
 */
export async function startScriptedApi(options: ScriptedApiOptions): Promise<ScriptedApi> {
  const toResponder = (s: ScenarioInput | Responder): { respond: Responder; apiKey: string | undefined } => {
    if (typeof s === 'function') return { respond: s, apiKey: undefined };
    const scenario = parseScenario(s);
    return { respond: scenarioResponder(scenario), apiKey: scenario.apiKey };
  };
  let current = toResponder(options.scenario);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  /** Each gate: opened, or the replies waiting at it. */
  const gates = new Map<string, 'open' | Array<() => void>>();
  const passGate = (name: string): Promise<void> => {
    const gate = gates.get(name) ?? [];
    if (gate === 'open') return Promise.resolve();
    gates.set(name, gate);
    return new Promise<void>((resolve) => gate.push(resolve));
  };
  const openGate = (name: string) => {
    const gate = gates.get(name);
    gates.set(name, 'open');
    if (Array.isArray(gate)) for (const resume of gate) resume();
  };

  async function streamReply(
    req: IncomingMessage,
    res: ServerResponse,
    reply: Exclude<ScriptedReply, { error: unknown }>,
    body: MessagesRequestBody,
  ) {
    const usage = replyUsage(reply, requestChars(body));
    const model = body.model ?? 'claude-scripted';
    if (!body.stream) {
      sendJson(res, 200, replyJson(reply, model, usage), reply.headers);
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': newId('req'),
      ...reply.headers,
    });
    const events = replyEvents(reply, model, usage);
    for (let i = 0; i < events.length; i++) {
      if (reply.hold && i === reply.hold.afterEvents) await passGate(reply.hold.gate);
      if (req.socket.destroyed) return;
      if (reply.dropAfterEvents !== undefined && i >= reply.dropAfterEvents) {
        // Let what was written reach the client, then close the socket without ending the chunked
        // body: the client sees the stream cut off mid-message, as when a connection drops.
        await new Promise<void>((resolve) => res.write('', () => resolve()));
        req.socket.end();
        return;
      }
      if (reply.errorEvent && i === reply.errorEvent.afterEvents) {
        res.end(
          encodeSse({
            event: 'error',
            data: {
              type: 'error',
              error: { type: reply.errorEvent.type, message: reply.errorEvent.message },
            },
          }),
        );
        return;
      }
      const event = events[i];
      if (event) res.write(encodeSse(event));
      if (reply.delayMs > 0 && i < events.length - 1) await sleep(reply.delayMs);
    }
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      sendJson(res, 200, {
        data: [{ id: 'claude-scripted', type: 'model', display_name: 'Scripted' }],
        has_more: false,
      });
      return;
    }
    if (
      req.method !== 'POST' ||
      (url.pathname !== '/v1/messages' && url.pathname !== '/v1/messages/count_tokens')
    ) {
      sendApiError(
        res,
        404,
        'not_found_error',
        `scripted server: no route ${req.method ?? ''} ${url.pathname}`,
      );
      return;
    }
    let body: MessagesRequestBody;
    try {
      body = JSON.parse(await readBody(req)) as MessagesRequestBody;
    } catch (error) {
      sendApiError(
        res,
        400,
        'invalid_request_error',
        `scripted server: body is not JSON (${(error as Error).message})`,
      );
      return;
    }
    if (url.pathname === '/v1/messages/count_tokens') {
      sendJson(res, 200, { input_tokens: Math.ceil(requestChars(body) / 4) });
      return;
    }
    const record: RecordedRequest = {
      index: requests.length,
      path: url.pathname,
      headers: req.headers,
      body,
      receivedAt: Date.now(),
    };
    requests.push(record);
    const requiredKey = options.apiKey ?? current.apiKey;
    if (requiredKey !== undefined && presentedKey(req) !== requiredKey) {
      sendApiError(res, 401, 'authentication_error', 'invalid x-api-key');
      return;
    }
    // Two of the real API's checks on a request's shape, so a harness bug fails here as it would there.
    const refusal = shapeProblem(body);
    if (refusal) {
      sendApiError(res, 400, 'invalid_request_error', refusal);
      return;
    }
    const reply = current.respond(record);
    if (!reply) {
      sendApiError(
        res,
        400,
        'invalid_request_error',
        `scripted server: no scripted reply for request #${record.index} (last user text: ${JSON.stringify(lastUserText(body).slice(0, 200))})`,
      );
      return;
    }
    if ('error' in reply) {
      if (reply.error.hold) await passGate(reply.error.hold.gate);
      if (reply.error.delayMs > 0) await sleep(reply.error.delayMs);
      sendApiError(res, reply.error.status, reply.error.type, reply.error.message, reply.error.headers);
      return;
    }
    await streamReply(req, res, reply, body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendApiError(res, 500, 'api_error', `scripted server: ${(error as Error).message}`);
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    release: openGate,
    setScenario(s) {
      current = toResponder(s);
    },
    close() {
      // Held replies end with their sockets instead of waiting forever.
      for (const name of [...gates.keys()]) openGate(name);
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function countCacheControl(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + countCacheControl(v), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce(
    (n, [k, v]) => n + (k === 'cache_control' ? 1 : countCacheControl(v)),
    0,
  );
}

/**
 * What the Messages API refuses about a request's shape, checked here too: tool_use or tool_result
 * blocks in a request that defines no tools, and more than four cache breakpoints.
 */
function shapeProblem(body: MessagesRequestBody): string | null {
  const hasToolBlocks = (body.messages ?? []).some(
    (m) =>
      Array.isArray(m.content) &&
      (m.content as { type?: unknown }[]).some((b) => b.type === 'tool_use' || b.type === 'tool_result'),
  );
  if (hasToolBlocks && (body.tools ?? []).length === 0)
    return 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
  if (countCacheControl([body.tools, body.system, body.messages]) > 4)
    return 'A maximum of 4 blocks with cache_control may be provided.';
  return null;
}
