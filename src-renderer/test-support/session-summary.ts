import type { SessionSummary } from '@shared/domain/session';
import { ZERO_USAGE } from '@shared/domain/usage';

/** A session as the main process lists it (idle, priced, no cost yet), with the fields a test cares about set. */
export function sessionSummary(over: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: 's',
    projectId: 'p',
    title: 'Review',
    model: 'claude-sonnet-4-5',
    permissionMode: 'default',
    activity: 'idle',
    waitingForUser: false,
    createdAt: '',
    updatedAt: '',
    usage: ZERO_USAGE,
    costUsd: 0,
    costKind: 'priced',
    messageCount: 1,
    lastError: null,
    coordinator: false,
    background: false,
    ...over,
  };
}
