import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readCarapaceFile } from './read-carapace';
import type { UsageLine } from '../usage-line';

/**
 * The usage of a session's sub-agents and teammates, from their transcripts in
 * `<sessionDir>/subagents/*.jsonl`, read as the usage ledger reads them (only usage lines are
 * parsed, so a long transcript costs little). Each record comes back as the usage line it was.
 */
export function subagentUsageLines(sessionDir: string): UsageLine[] {
  const dir = path.join(sessionDir, 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return names.flatMap((n) =>
    readCarapaceFile(path.join(dir, n)).records.map((r): UsageLine => ({
      type: 'usage',
      apiId: r.key,
      model: r.model,
      tokens: r.tokens,
      costMicros: r.costMicros,
      priceVersion: r.priceVersion,
      turn: r.turn,
      purpose: 'turn',
      at: new Date(r.at).toISOString(),
    })),
  );
}
