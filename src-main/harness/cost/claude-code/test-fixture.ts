/**
 * Claude Code transcript lines for tests, in the shape Claude Code writes them (one JSON object per
 * line, no spaces). Only the fields usage is read from, plus the ones around them that real lines have.
 */
export interface AssistantOptions {
  sessionId: string;
  cwd: string;
  at: string;
  model: string;
  messageId?: string;
  requestId?: string;
  input?: number;
  output?: number;
  cacheWrite5m?: number;
  cacheWrite1h?: number;
  cacheRead?: number;
  /** Leave out `cache_creation` (older Claude Code): every write counts as 5 min. */
  noSplit?: boolean;
  costUSD?: number;
  webSearches?: number;
  isSidechain?: boolean;
  speed?: 'fast' | 'standard';
}

export function assistantLine(o: AssistantOptions): string {
  const w5 = o.cacheWrite5m ?? 0;
  const w1 = o.cacheWrite1h ?? 0;
  return JSON.stringify({
    parentUuid: null,
    isSidechain: o.isSidechain ?? false,
    userType: 'external',
    cwd: o.cwd,
    sessionId: o.sessionId,
    version: '2.0.50',
    type: 'assistant',
    ...(o.costUSD !== undefined ? { costUSD: o.costUSD } : {}),
    message: {
      ...(o.messageId !== undefined ? { id: o.messageId } : {}),
      type: 'message',
      role: 'assistant',
      model: o.model,
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: o.input ?? 0,
        cache_creation_input_tokens: w5 + w1,
        cache_read_input_tokens: o.cacheRead ?? 0,
        ...(o.noSplit
          ? {}
          : { cache_creation: { ephemeral_5m_input_tokens: w5, ephemeral_1h_input_tokens: w1 } }),
        output_tokens: o.output ?? 0,
        ...(o.webSearches !== undefined ? { server_tool_use: { web_search_requests: o.webSearches } } : {}),
        ...(o.speed !== undefined ? { speed: o.speed } : {}),
        service_tier: 'standard',
      },
    },
    ...(o.requestId !== undefined ? { requestId: o.requestId } : {}),
    uuid: `u-${o.messageId ?? 'x'}-${o.at}`,
    timestamp: o.at,
  });
}

export function userLine(o: {
  sessionId: string;
  cwd: string;
  at: string;
  text: string;
  isMeta?: boolean;
}): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: o.cwd,
    sessionId: o.sessionId,
    version: '2.0.50',
    type: 'user',
    message: { role: 'user', content: o.text },
    ...(o.isMeta ? { isMeta: true } : {}),
    uuid: `user-${o.at}`,
    timestamp: o.at,
  });
}

export function toolResultLine(o: { sessionId: string; cwd: string; at: string }): string {
  return JSON.stringify({
    type: 'user',
    sessionId: o.sessionId,
    cwd: o.cwd,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
    timestamp: o.at,
  });
}

export function summaryLine(summary: string): string {
  return JSON.stringify({ type: 'summary', summary, leafUuid: 'leaf-1' });
}
