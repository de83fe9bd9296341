import { z } from 'zod';

/**
 * A scenario: the replies a scripted Messages API server gives, in order. Each request takes the first
 * unused step whose `when` matches it (a step without `when` matches anything), so a plain list replays
 * in order and matchers let several concurrent sessions each get their own reply.
 */

const Usage = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative().optional(),
  cache_read_input_tokens: z.number().int().nonnegative().optional(),
  cache_creation: z
    .object({
      ephemeral_5m_input_tokens: z.number().int().nonnegative(),
      ephemeral_1h_input_tokens: z.number().int().nonnegative(),
    })
    .optional(),
  /** Server tools the reply used (web search is billed per request); reported in the final message_delta. */
  server_tool_use: z.object({ web_search_requests: z.number().int().nonnegative() }).optional(),
});
export type ScriptedUsage = z.infer<typeof Usage>;

const ContentSpec = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('tool_use'),
    id: z.string().optional(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }),
  // A server tool's call and its result (the API runs web search itself and streams both blocks).
  z.object({
    type: z.literal('server_tool_use'),
    id: z.string().optional(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal('web_search_tool_result'),
    tool_use_id: z.string(),
    content: z.union([
      z.array(
        z.object({
          type: z.literal('web_search_result'),
          url: z.string(),
          title: z.string(),
          encrypted_content: z.string().default(''),
          page_age: z.string().nullable().default(null),
        }),
      ),
      z.object({ type: z.literal('web_search_tool_result_error'), error_code: z.string() }),
    ]),
  }),
]);
export type ContentSpec = z.infer<typeof ContentSpec>;

export const MessageReply = z.object({
  content: z.array(ContentSpec),
  stop_reason: z
    .enum(['end_turn', 'max_tokens', 'tool_use', 'stop_sequence', 'pause_turn', 'refusal'])
    .default('end_turn'),
  /** Reported in message_start (input side) and the final message_delta (output side). Estimated when absent. */
  usage: Usage.optional(),
  /** Defaults to the model the request named. */
  model: z.string().optional(),
  id: z.string().optional(),
  /** Characters per text_delta / thinking_delta. */
  chunkChars: z.number().int().positive().default(16),
  /** Characters per input_json_delta. */
  jsonChunkChars: z.number().int().positive().default(12),
  /** Pause between SSE events, to make streaming observable. */
  delayMs: z.number().int().nonnegative().default(0),
  /**
   * Pause the stream once this many SSE events have gone out, until a test opens the named gate
   * (`ScriptedApi.release`): replies of several sessions can be held mid-stream at a moment the test
   * controls, instead of hoping their timings overlap on a loaded machine.
   */
  hold: z.object({ afterEvents: z.number().int().nonnegative(), gate: z.string().min(1) }).optional(),
  /** Destroy the connection after this many SSE events (a dropped connection mid-stream). */
  dropAfterEvents: z.number().int().nonnegative().optional(),
  /** Send an SSE `error` event (after the 200) once this many events have gone out. */
  errorEvent: z
    .object({ afterEvents: z.number().int().nonnegative(), type: z.string(), message: z.string() })
    .optional(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type MessageReply = z.output<typeof MessageReply>;

export const ErrorReply = z.object({
  status: z.number().int().min(400).max(599),
  type: z.string(),
  message: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Wait this long before answering, like a slow failing upstream. */
  delayMs: z.number().int().nonnegative().default(0),
  /** Answer only once a test opens this gate (`ScriptedApi.release`): a failure at a chosen moment. */
  hold: z.object({ gate: z.string().min(1) }).optional(),
});
export type ErrorReply = z.output<typeof ErrorReply>;

export const Matcher = z.object({
  /** Substring of the text of the last user message. */
  lastUserText: z.string().optional(),
  /** Regular expression (source) against the same text. */
  lastUserPattern: z.string().optional(),
  model: z.string().optional(),
  /** Substring of the system prompt: tells a sub-agent's requests (its own prompt) from its parent's. */
  systemText: z.string().optional(),
  /** Matches only the request with this 0-based index (over the server's life). */
  requestIndex: z.number().int().nonnegative().optional(),
});
export type Matcher = z.infer<typeof Matcher>;

export const Step = z.object({
  when: Matcher.optional(),
  /** How many requests this step answers; `true` answers every match. */
  times: z.union([z.number().int().positive(), z.literal(true)]).default(1),
  reply: z.union([MessageReply, z.object({ error: ErrorReply })]),
});
export type Step = z.output<typeof Step>;

export const Scenario = z.object({
  name: z.string().optional(),
  /** When set, requests whose key (`x-api-key` or bearer token) differs get a 401 `authentication_error`. */
  apiKey: z.string().optional(),
  steps: z.array(Step),
});
export type ScenarioInput = z.input<typeof Scenario>;
export type Scenario = z.output<typeof Scenario>;

export function parseScenario(data: unknown): Scenario {
  return Scenario.parse(data);
}

/** Reads a scenario from a JSON file, with a readable error naming the file and the first problem. */
export function loadScenarioFile(file: string, read: (file: string) => string): Scenario {
  let data: unknown;
  try {
    data = JSON.parse(read(file));
  } catch (error) {
    throw new Error(`Scenario ${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = Scenario.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `Scenario ${file} is invalid at ${issue?.path.join('.') ?? '(root)'}: ${issue?.message ?? 'unknown problem'}`,
    );
  }
  return parsed.data;
}
