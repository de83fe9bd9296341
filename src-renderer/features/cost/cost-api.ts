import { IpcRequestError } from '@shared/domain/errors';
import type { CostQuery } from '@shared/domain/cost-report';
import type { CostTable } from '@shared/ipc/contract/cost';
import { getClient } from '../../ipc/client';

/** The dashboard's requests; a failure becomes plain words for the place that asked. */
export const costApi = {
  report: (query: CostQuery) => getClient().invoke('cost.report', query),
  session: (sessionId: string) => getClient().invoke('cost.session', { sessionId }),
  export: (query: CostQuery, table: CostTable, format: 'csv' | 'json') =>
    getClient().invoke('cost.export', { query, table, format }),
  budgets: (projectId: string | undefined) =>
    getClient().invoke('budgets.get', projectId ? { projectId } : {}),
  setBudgets: (
    projectId: string | undefined,
    limits: { sessionUsd: number | null; projectDailyUsd: number | null; dailyUsd: number | null },
  ) => getClient().invoke('budgets.set', { ...(projectId ? { projectId } : {}), ...limits }),
  onUpdated: (listener: (e: { projectId: string | null }) => void) =>
    getClient().on('cost.updated', listener),
};

export function problem(error: unknown): string {
  if (error instanceof IpcRequestError) {
    const details = error.details.length > 0 ? ` (${error.details.join('; ')})` : '';
    return `${error.message}${details}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Saves text as a download (the browser's own "save as", in the desktop app too). */
export function download(file: { fileName: string; mimeType: string; text: string }): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
