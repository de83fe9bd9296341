import { create } from 'zustand';
import type { PermissionLogEntry, PermissionRequestView } from '@shared/domain/permissions';

export interface PermissionsState {
  /** Every pending request, oldest first. */
  pending: PermissionRequestView[];
  /** Permission logs of the sessions whose log was opened. */
  logs: Record<string, PermissionLogEntry[]>;
}

export const usePermissions = create<PermissionsState>()(() => ({ pending: [], logs: {} }));

export function addPending(request: PermissionRequestView): void {
  usePermissions.setState((s) =>
    s.pending.some((p) => p.id === request.id) ? s : { pending: [...s.pending, request] },
  );
}

export function removePending(requestId: string): void {
  usePermissions.setState((s) => ({ pending: s.pending.filter((p) => p.id !== requestId) }));
}

export function setLog(sessionId: string, entries: PermissionLogEntry[]): void {
  usePermissions.setState((s) => ({ logs: { ...s.logs, [sessionId]: entries } }));
}

export function appendLog(sessionId: string, entry: PermissionLogEntry): void {
  usePermissions.setState((s) => {
    const current = s.logs[sessionId];
    return current ? { logs: { ...s.logs, [sessionId]: [...current, entry] } } : s;
  });
}

/**
 * A rule a person could write from a logged call: for Bash, the rule the main process offered when it
 * asked (the narrowest one that covers the command; none for commands no rule can safely describe),
 * never a prefix guessed from the first words (`rm *`); for files, the file's path.
 */
export function ruleFromEntry(entry: PermissionLogEntry, projectRoot: string): string {
  if (entry.addedRule) return entry.addedRule;
  if (entry.toolName === 'Bash') return entry.suggestions?.[0] ?? '';
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
