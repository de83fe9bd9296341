import { z } from 'zod';
import { JsonlLog } from './jsonl-log';
import { AGENT_ID, nameProblem, sameName } from './names';

const AgentId = z.string().regex(AGENT_ID);

/** The team's roster on disk (`team/team.jsonl`): who was created, ended, and where their plans stand. */
const RosterLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('member'),
    agentId: AgentId,
    name: z.string(),
    agentType: z.string().min(1),
    model: z.string().min(1),
    instructions: z.string(),
    planMode: z.boolean(),
    createdAt: z.string(),
  }),
  z.object({ type: z.literal('ended'), agentId: AgentId, at: z.string() }),
  z.object({ type: z.literal('plan'), agentId: AgentId, plan: z.string(), at: z.string() }),
  z.object({
    type: z.literal('plan_decided'),
    agentId: AgentId,
    approve: z.boolean(),
    by: z.enum(['coordinator', 'person']),
    at: z.string(),
  }),
]);
export type RosterLine = z.infer<typeof RosterLine>;

/** A worker as the roster remembers it. */
export interface MemberRecord {
  agentId: string;
  name: string;
  agentType: string;
  model: string;
  instructions: string;
  planMode: boolean;
  createdAt: string;
  ended: boolean;
  /** Its plan waiting for a decision. */
  pendingPlan: string | null;
  /** A plan of it was approved: it works in its normal mode from then on. */
  planApproved: boolean;
}

export class Roster {
  private readonly log: JsonlLog<RosterLine>;

  constructor(file: string) {
    this.log = new JsonlLog(file, RosterLine, "the team's roster");
  }

  /** The members the file describes, oldest first; lines that do not fit are skipped and reported. */
  load(): { members: MemberRecord[]; problems: string[] } {
    const { entries, problems } = this.log.read();
    const members: MemberRecord[] = [];
    const byId = new Map<string, MemberRecord>();
    for (const line of entries) {
      if (line.type === 'member') {
        const bad = nameProblem(line.name);
        if (bad) {
          problems.push(
            `The roster names a worker ${JSON.stringify(line.name)}, which is not allowed; it was skipped.`,
          );
          continue;
        }
        const clash = members.find(
          (m) => !m.ended && (m.agentId === line.agentId || sameName(m.name, line.name)),
        );
        if (clash || byId.has(line.agentId)) {
          problems.push(`The roster lists worker "${line.name}" twice; the second entry was skipped.`);
          continue;
        }
        const { type: _type, ...fields } = line;
        const record: MemberRecord = { ...fields, ended: false, pendingPlan: null, planApproved: false };
        members.push(record);
        byId.set(line.agentId, record);
        continue;
      }
      const m = byId.get(line.agentId);
      if (!m) {
        problems.push(`The roster mentions an unknown worker ${line.agentId}; that line was skipped.`);
        continue;
      }
      if (line.type === 'ended') m.ended = true;
      else if (line.type === 'plan') m.pendingPlan = line.plan;
      else {
        m.pendingPlan = null;
        if (line.approve) m.planApproved = true;
      }
    }
    return { members, problems };
  }

  append(line: RosterLine): void {
    this.log.append(line);
  }
}
