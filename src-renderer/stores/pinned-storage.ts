/**
 * The sessions pinned to side by side, per project, kept in this browser's storage like the layout and
 * the folded sidebar: a reload (or the app's restart) tiles the same sessions again.
 */
const PINNED_KEY = 'carapace.pinned';

type PinnedByProject = Record<string, string[]>;

function readAll(): PinnedByProject {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(PINNED_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const all: PinnedByProject = {};
    for (const [projectId, ids] of Object.entries(parsed)) {
      // Anything else in there (an older format, a hand edit) is dropped rather than trusted.
      if (Array.isArray(ids)) all[projectId] = ids.filter((id): id is string => typeof id === 'string');
    }
    return all;
  } catch {
    return {};
  }
}

/** The project's pinned sessions that still exist; pins of sessions gone since are forgotten here. */
export function loadPinned(projectId: string, existing: ReadonlySet<string>): string[] {
  const pinned = (readAll()[projectId] ?? []).filter((id) => existing.has(id));
  savePinned(projectId, pinned);
  return pinned;
}

export function savePinned(projectId: string, sessionIds: readonly string[]): void {
  try {
    const all = readAll();
    if (sessionIds.length > 0) all[projectId] = [...sessionIds];
    else delete all[projectId];
    localStorage.setItem(PINNED_KEY, JSON.stringify(all));
  } catch {
    // Storage may be unavailable (private mode); the pins then last for this page only.
  }
}
