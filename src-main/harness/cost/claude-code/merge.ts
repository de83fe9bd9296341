import type { UsageRecord } from '../usage-record';
import type { ClaudeCodeFile } from './read-file';

/**
 * Claude Code's records of many files, deduplicated across them as ccusage does: files in the order
 * of their earliest line (files without a time last, ties kept in the given order), and of records
 * sharing a key the first one read is kept. A resumed conversation copies earlier replies into its
 * new file; this keeps each reply once.
 */
export function mergeClaudeCodeFiles(files: readonly ClaudeCodeFile[]): UsageRecord[] {
  const ordered = files
    .map((f, i) => ({ f, i }))
    .sort((a, b) => {
      const x = a.f.earliestAt;
      const y = b.f.earliestAt;
      if (x === y) return a.i - b.i;
      if (x === null) return 1;
      if (y === null) return -1;
      return x - y;
    });
  const seen = new Set<string>();
  const out: UsageRecord[] = [];
  for (const { f } of ordered)
    for (const r of f.records) {
      if (r.key !== null) {
        if (seen.has(r.key)) continue;
        seen.add(r.key);
      }
      out.push(r);
    }
  return out;
}
