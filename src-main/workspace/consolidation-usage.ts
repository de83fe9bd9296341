import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { UsageReport } from '../harness/cost/tracker';
import { publishUsageLine } from '../harness/cost/usage-feed';
import { usageLineOf } from '../harness/cost/usage-line-of';
import { TranscriptWriter } from '../harness/session/transcript-file';
import { projectSlug } from '../platform/paths';

export const CONSOLIDATION_TITLE = 'Memory consolidation';

/**
 * Where a "Consolidate now" run's model usage is written: a small transcript of its own in the
 * project's sessions folder (`projects/<slug>/<id>.jsonl`: a `session` line, the title "Memory
 * consolidation", one `usage` line per response, purpose `consolidation`). The run belongs to no
 * session, and adding it to one (the latest, say) would charge a conversation for work it never
 * asked for; a transcript of its own is read by the usage ledger like any other, so the dashboard,
 * `carapace usage` and daily budgets count it, under a name that says what it was. The file is made
 * only when the model was called: a run refused before that leaves nothing behind.
 */
export function consolidationUsageRecorder(o: {
  carapaceHome: string;
  projectRoot: string;
  model: string;
  /** A usage line that could not be written (a full disk): told, never thrown into the run. */
  onError: (error: unknown) => void;
  now?: () => Date;
}): { onUsage: (report: UsageReport) => void; close: () => void } {
  const now = o.now ?? (() => new Date());
  let writer: TranscriptWriter | null = null;
  const sessionId = randomUUID();
  const onUsage = (report: UsageReport) => {
    try {
      write(report);
    } catch (error) {
      o.onError(error);
    }
  };
  const write = (report: UsageReport) => {
    const at = now().toISOString();
    if (!writer) {
      const dir = path.join(o.carapaceHome, 'projects', projectSlug(o.projectRoot));
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writer = new TranscriptWriter(path.join(dir, `${sessionId}.jsonl`));
      writer.append({
        type: 'session',
        version: 1,
        sessionId,
        projectPath: o.projectRoot,
        createdAt: at,
        model: o.model,
      });
      writer.append({ type: 'title', title: CONSOLIDATION_TITLE, at });
    }
    const line = usageLineOf({ ...report, purpose: 'consolidation' }, 0, at);
    writer.append(line);
    publishUsageLine(line, { sessionId, agentId: sessionId });
  };
  return { onUsage, close: () => writer?.close() };
}
