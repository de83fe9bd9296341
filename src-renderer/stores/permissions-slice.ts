import type { StateCreator } from 'zustand';
import type { BudgetRequestView } from '@shared/domain/cost-report';
import type { PermissionLogEntry, PermissionRequestView } from '@shared/domain/permissions';

export interface PermissionsSlice {
  /** Every pending request, oldest first. */
  pending: PermissionRequestView[];
  /** Sessions paused at a spending limit, waiting for "allow more" or "stop" (Inbox items too). */
  budgetPending: BudgetRequestView[];
  setBudgetPending(requests: BudgetRequestView[]): void;
  addBudgetPending(request: BudgetRequestView): void;
  removeBudgetPending(requestId: string): void;
  /** Permission logs of the sessions whose log was opened. */
  permissionLogs: Record<string, PermissionLogEntry[]>;
  addPending(request: PermissionRequestView): void;
  removePending(requestId: string): void;
  setPermissionLog(sessionId: string, entries: PermissionLogEntry[]): void;
  /** A new entry joins a log only when that log is loaded (else it is fetched whole when opened). */
  appendPermissionLog(sessionId: string, entry: PermissionLogEntry): void;
}

export const createPermissionsSlice: StateCreator<PermissionsSlice> = (set) => ({
  pending: [],
  budgetPending: [],
  setBudgetPending: (budgetPending) => set({ budgetPending }),
  addBudgetPending: (request) =>
    set((s) =>
      s.budgetPending.some((p) => p.id === request.id) ? s : { budgetPending: [...s.budgetPending, request] },
    ),
  removeBudgetPending: (requestId) =>
    set((s) => ({ budgetPending: s.budgetPending.filter((p) => p.id !== requestId) })),
  permissionLogs: {},
  addPending: (request) =>
    set((s) => (s.pending.some((p) => p.id === request.id) ? s : { pending: [...s.pending, request] })),
  removePending: (requestId) => set((s) => ({ pending: s.pending.filter((p) => p.id !== requestId) })),
  setPermissionLog: (sessionId, entries) =>
    set((s) => ({ permissionLogs: { ...s.permissionLogs, [sessionId]: entries } })),
  appendPermissionLog: (sessionId, entry) =>
    set((s) => {
      const current = s.permissionLogs[sessionId];
      return current ? { permissionLogs: { ...s.permissionLogs, [sessionId]: [...current, entry] } } : s;
    }),
});

/**
 * A rule a person could write from a logged call: for Bash, the rule the main process offered when it
 * asked (the narrowest one that covers the command; none for commands no rule can safely describe),
 * never a prefix guessed from the first words (`rm *`); for files, the file's path.
 */
export function ruleFromEntry(entry: PermissionLogEntry, projectRoot: string): string {
  if (entry.addedRule) return entry.addedRule;
  if (entry.toolName === 'Bash') return entry.suggestions?.[0] ?? '';
  // A fetch approves its domain, never WebFetch as a whole (every site).
  if (entry.toolName === 'WebFetch') return entry.suggestions?.[0] ?? webFetchRule(entry.summary);
  const rel = entry.summary.startsWith(`${projectRoot}/`)
    ? `./${entry.summary.slice(projectRoot.length + 1)}`
    : entry.summary;
  const family =
    entry.toolName === 'Write' || entry.toolName === 'Edit'
      ? 'Edit'
      : entry.toolName === 'Read' || entry.toolName === 'Glob' || entry.toolName === 'Grep'
        ? 'Read'
        : entry.toolName;
  return family === entry.toolName && !['Edit', 'Read'].includes(family) ? family : `${family}(${rel})`;
}

function webFetchRule(url: string): string {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host ? `WebFetch(domain:${host})` : '';
  } catch {
    return '';
  }
}
