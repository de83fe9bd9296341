import { AsyncLocalStorage } from 'node:async_hooks';

/** Who a piece of work is done for: one worker of one coordinator session's team. */
export interface MemberIdentity {
  sessionId: string;
  agentId: string;
  name: string;
  agentType: string;
}

/**
 * In-process teammates share one event loop, so "who is running now" cannot be a variable: each
 * worker's turn runs inside its own async context, which follows every await, timer and callback
 * it starts (model requests, tool calls, permission asks), whatever else interleaves with it.
 */
const storage = new AsyncLocalStorage<MemberIdentity>();

/** Runs `work` as `member`: everything it starts, directly or not, sees that member. */
export function runAsMember<T>(member: MemberIdentity, work: () => T): T {
  return storage.run(member, work);
}

/** The team member the current code runs for, or undefined outside any worker's turn. */
export function currentMember(): MemberIdentity | undefined {
  return storage.getStore();
}
