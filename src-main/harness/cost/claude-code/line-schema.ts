import { z } from 'zod';

/**
 * The parts of a Claude Code transcript line that usage is read from. Which lines count follows
 * ccusage (its `usageDataSchema`): any line whose `message.usage` has numeric input and output
 * tokens and whose `timestamp` is an ISO time in UTC; everything else on the line is optional.
 * Tokens must also be whole and non-negative here (ccusage would add a negative count; we report it).
 */

/** ccusage accepts exactly this form (Claude Code always writes it); other forms are skipped there too. */
const IsoUtc = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$/);
/**
 * Bounds as in `ledger/read-carapace.ts`: beyond any real response, so one hostile line cannot swamp
 * every total or sum past safe integers (a line outside them is skipped and reported).
 */
const MAX_TOKENS = 100_000_000;
const MAX_WEB_SEARCHES = 100_000;
/** $10,000 for one response. */
const MAX_COST_USD = 10_000;
const Count = z.number().int().nonnegative().max(MAX_TOKENS);

export const ClaudeCodeUsage = z.object({
  input_tokens: Count,
  output_tokens: Count,
  cache_creation_input_tokens: Count.optional(),
  cache_read_input_tokens: Count.optional(),
  /** Present since the 1 h cache: the split of `cache_creation_input_tokens` by lifetime. */
  cache_creation: z
    .object({
      ephemeral_5m_input_tokens: Count.optional(),
      ephemeral_1h_input_tokens: Count.optional(),
    })
    .nullish(),
  server_tool_use: z
    .object({ web_search_requests: z.number().int().nonnegative().max(MAX_WEB_SEARCHES).optional() })
    .nullish(),
  speed: z.string().optional(),
});

const NonEmpty = z.string().min(1);

export const ClaudeCodeUsageLine = z.object({
  timestamp: IsoUtc,
  sessionId: NonEmpty.optional(),
  cwd: z.string().optional(),
  requestId: NonEmpty.optional(),
  // zod 4 numbers refuse Infinity and NaN already.
  costUSD: z.number().nonnegative().max(MAX_COST_USD).optional(),
  isSidechain: z.boolean().optional(),
  agentId: z.string().optional(),
  message: z.object({
    id: NonEmpty.optional(),
    model: NonEmpty.optional(),
    usage: ClaudeCodeUsage,
  }),
});
export type ClaudeCodeUsageLine = z.infer<typeof ClaudeCodeUsageLine>;

/** A person's message (or a tool result, which is not one); only what titles and turns need. */
export const ClaudeCodeUserLine = z.object({
  type: z.literal('user'),
  isMeta: z.boolean().optional(),
  isSidechain: z.boolean().optional(),
  message: z.object({
    content: z.union([
      z.string(),
      z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()),
    ]),
  }),
});
export type ClaudeCodeUserLine = z.infer<typeof ClaudeCodeUserLine>;

/** Claude Code's own title for a conversation. */
export const ClaudeCodeSummaryLine = z.object({ type: z.literal('summary'), summary: z.string() });
