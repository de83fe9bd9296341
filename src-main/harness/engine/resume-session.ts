import { subagentUsageLines } from '../cost/ledger/subagent-usage';
import { interruptedReplies, turnUnfinished } from '../session/interrupted-turn';
import type { TranscriptLine } from '../session/transcript-file';
import type { Conversation } from './conversation';
import { INTERRUPTED_BY_EXIT, notice } from './engine-notes';

/**
 * Takes up an agent's conversation from its transcript lines: items, context window (with collapses
 * and compactions replayed) and the cost snapshot saved for it; tool calls left without a result
 * are closed as interrupted. Returns the model the lines last used, if they say.
 */
export function resumeConversation(
  conversation: Conversation,
  lines: readonly TranscriptLine[],
  agent: { sessionId: string; agentId: string; sessionDir: string },
): string | null {
  const model = conversation.resume(lines);
  // The main agent's total holds its sub-agents' too: what they spent after the last snapshot
  // (a crash mid-turn) is in their own transcripts' usage lines.
  if (agent.agentId === agent.sessionId) {
    const since = lastSnapshotAt(lines, agent.sessionId);
    for (const u of subagentUsageLines(agent.sessionDir))
      if (since === null || u.at > since) conversation.cost.addLine(u);
  }
  // A reply the app died in comes back with what had arrived, marked interrupted, not dropped.
  for (const reply of interruptedReplies(lines)) conversation.record(reply);
  conversation.closeDangling();
  if (turnUnfinished(lines)) {
    conversation.record(notice('warning', INTERRUPTED_BY_EXIT, 'interrupted_by_exit'));
    conversation.appendLine({ type: 'turn', phase: 'end', at: new Date().toISOString() });
  }
  return model;
}

/** When this session's last cost snapshot was written (null: none): later usage is not in it. */
function lastSnapshotAt(lines: readonly TranscriptLine[], sessionId: string): string | null {
  const last = lines.findLast((l) => l.type === 'cost' && l.snapshot.sessionId === sessionId);
  return last?.type === 'cost' ? last.at : null;
}
