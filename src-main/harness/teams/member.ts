import type { TrackedTask } from '../tasks/task-manager';
import path from 'node:path';
import type { AgentState } from '@shared/domain/agents';
import type { TeamMember } from '@shared/domain/team';
import { Mailbox } from './mailbox';
import type { MemberRecord } from './roster';
import type { BuiltWorker } from './types';

/** A member in memory: its record, mailbox, runtime (built on first use after a restart) and turn. */
export interface Member extends MemberRecord {
  mailbox: Mailbox;
  worker: BuiltWorker | null;
  turn: Promise<void> | null;
  stop: AbortController | null;
  /** Permission requests of it (or its sub-agents) waiting for an answer. */
  asking: number;
  /** Its last turn failed (until the next one starts). */
  failed: boolean;
  /** It sent a plan during the running turn: the plan, not the turn's text, is its report. */
  submittedPlan: boolean;
  /** Its entry in the session's task list (absent where there is none). */
  task?: TrackedTask | undefined;
}

/** A member as read from the roster: idle, its mailbox opened (files are named by agent id only). */
export function memberFrom(record: MemberRecord, teamDir: string): Member {
  return {
    ...record,
    mailbox: new Mailbox(
      path.join(teamDir, 'mail', `${record.agentId}.jsonl`),
      `worker ${record.name}'s mailbox`,
    ),
    worker: null,
    turn: null,
    stop: null,
    asking: 0,
    failed: false,
    submittedPlan: false,
  };
}

export function stateOf(m: Member): AgentState {
  if (m.ended) return 'done';
  if (m.asking > 0) return 'waiting';
  if (m.turn !== null) return 'working';
  // A plan waiting for a decision waits for someone, like a permission request.
  if (m.pendingPlan !== null) return 'waiting';
  return m.failed ? 'failed' : 'idle';
}

export function memberView(m: Member): TeamMember {
  return {
    name: m.name,
    agentId: m.agentId,
    agentType: m.agentType,
    model: m.model,
    state: stateOf(m),
    instructions: m.instructions,
    planMode: m.planMode,
    pendingPlan: m.pendingPlan,
    unread: m.mailbox.unread().length,
  };
}
