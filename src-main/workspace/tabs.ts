import path from 'node:path';
import { TabsState } from '@shared/domain/workspace';
import { readJsonFile, writeJsonFileAtomic } from '../platform/json-file';

/** A project's open tabs and their order, in `projects/<slug>/workspace.json`. */
export class TabsStore {
  private readonly cache = new Map<string, TabsState>();

  constructor(private readonly projectDir: (projectId: string) => string) {}

  private file(projectId: string): string {
    return path.join(this.projectDir(projectId), 'workspace.json');
  }

  get(projectId: string, exists: (sessionId: string) => boolean): TabsState {
    let tabs = this.cache.get(projectId);
    if (!tabs) {
      const read = readJsonFile(this.file(projectId), TabsState);
      tabs = read.kind === 'ok' ? read.value : { open: [], active: null };
    }
    // Sessions deleted from disk behind our back simply drop out of the tab strip.
    const open = tabs.open.filter(exists);
    const active = tabs.active !== null && open.includes(tabs.active) ? tabs.active : (open[0] ?? null);
    tabs = { open, active };
    this.cache.set(projectId, tabs);
    return tabs;
  }

  set(projectId: string, tabs: TabsState): TabsState {
    this.cache.set(projectId, tabs);
    writeJsonFileAtomic(this.file(projectId), tabs);
    return tabs;
  }
}

export function openTab(tabs: TabsState, sessionId: string): TabsState {
  const open = tabs.open.includes(sessionId) ? tabs.open : [...tabs.open, sessionId];
  return { open, active: sessionId };
}

export function closeTab(tabs: TabsState, sessionId: string): TabsState {
  const i = tabs.open.indexOf(sessionId);
  if (i < 0) return tabs;
  const open = tabs.open.filter((id) => id !== sessionId);
  // Closing the active tab activates its right neighbour, else its left one, as editors do.
  const active = tabs.active === sessionId ? (open[i] ?? open[i - 1] ?? null) : tabs.active;
  return { open, active };
}

/** Applies a new order; ids not open are ignored and open ids missing from `order` keep their place at the end. */
export function reorderTabs(tabs: TabsState, order: readonly string[]): TabsState {
  const wanted = order.filter((id, i) => tabs.open.includes(id) && order.indexOf(id) === i);
  const rest = tabs.open.filter((id) => !wanted.includes(id));
  return { open: [...wanted, ...rest], active: tabs.active };
}
