import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TokenCounts } from '@shared/domain/cost-report';
import { projectSlug } from '../../../platform/paths';
import type { UsageLine } from '../usage-line';

/**
 * Real transcript lines on disk for the ledger's tests and benchmark: a session line, turns, items,
 * usage lines, as the engine writes them.
 */

export interface UsageSpec {
  apiId: string | null;
  model: string;
  tokens?: Partial<TokenCounts>;
  costMicros: number | null;
  turn: number;
  at: string;
}

export function usageLine(u: UsageSpec): UsageLine {
  return {
    type: 'usage',
    apiId: u.apiId,
    model: u.model,
    tokens: {
      input: 0,
      output: 0,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      cacheRead: 0,
      webSearches: 0,
      ...u.tokens,
    },
    costMicros: u.costMicros,
    priceVersion: u.costMicros === null ? null : 'test-1',
    turn: u.turn,
    purpose: 'turn',
    at: u.at,
  };
}

export interface SessionSpec {
  carapaceHome: string;
  projectPath: string;
  sessionId: string;
  createdAt?: string;
  title?: string;
  prompt?: string;
  usages: UsageSpec[];
  /** A sub-agent's transcript under the session's `subagents/` folder. */
  agent?: { agentId: string; name: string; agentType: string };
}

/** Writes a transcript; returns its path. */
export function writeSession(s: SessionSpec): string {
  const dir = path.join(s.carapaceHome, 'projects', projectSlug(s.projectPath));
  const file = s.agent
    ? path.join(dir, s.sessionId, 'subagents', `${s.agent.agentId}.jsonl`)
    : path.join(dir, `${s.sessionId}.jsonl`);
  mkdirSync(path.dirname(file), { recursive: true });
  const createdAt = s.createdAt ?? s.usages[0]?.at ?? '2026-01-01T00:00:00.000Z';
  const lines: unknown[] = [
    {
      type: 'session',
      version: 1,
      sessionId: s.agent ? s.agent.agentId : s.sessionId,
      projectPath: s.projectPath,
      createdAt,
      model: s.usages[0]?.model ?? 'claude-sonnet-4-5',
      ...(s.agent ? { agent: { ...s.agent, parentId: null, toolUseId: null } } : {}),
    },
  ];
  let turn = 0;
  for (const u of s.usages) {
    while (turn < u.turn) {
      turn++;
      lines.push({ type: 'turn', phase: 'start', at: u.at });
      lines.push({
        type: 'item',
        item: {
          kind: 'message',
          id: `u-${turn}`,
          role: 'user',
          content: [{ type: 'text', text: turn === 1 && s.prompt ? s.prompt : `Question ${turn}` }],
          createdAt: u.at,
          status: 'complete',
          origin: 'user',
        },
      });
    }
    lines.push({
      type: 'item',
      item: {
        kind: 'message',
        id: `a-${u.apiId ?? Math.random()}`,
        role: 'assistant',
        content: [{ type: 'text', text: 'An answer. '.repeat(20) }],
        createdAt: u.at,
        status: 'complete',
        model: u.model,
        usage: {
          inputTokens: u.tokens?.input ?? 0,
          outputTokens: u.tokens?.output ?? 0,
          cacheCreationInputTokens: (u.tokens?.cacheWrite5m ?? 0) + (u.tokens?.cacheWrite1h ?? 0),
          cacheReadInputTokens: u.tokens?.cacheRead ?? 0,
        },
        ...(u.apiId ? { apiId: u.apiId } : {}),
      },
    });
    lines.push(usageLine(u));
  }
  if (s.title) lines.push({ type: 'title', title: s.title, at: createdAt });
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}

export function appendUsage(file: string, u: UsageSpec): void {
  appendFileSync(file, `${JSON.stringify(usageLine(u))}\n`);
}
