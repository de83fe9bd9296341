export interface FileSnapshot {
  path: string;
  /** Content before the change; null when the file did not exist. */
  before: string | null;
  /** Content the tool wrote (for "changed by someone else since" at rewind); absent in old callers. */
  after?: string;
  toolUseId: string;
  at: number;
}

/**
 * Before-images of every file a tool changed, in order, so a rewind can put files back as they were
 * at a message. `persist` (given for app and -p sessions, see harness/rewind/history-store.ts) keeps
 * each one in the session's transcript; one FileHistory is shared by a session's main agent, its
 * sub-agents and its teammates, so their edits are all undone by one rewind.
 */
export class FileHistory {
  readonly snapshots: FileSnapshot[] = [];

  constructor(private readonly persist?: (snapshot: FileSnapshot) => void) {}

  record(snapshot: FileSnapshot): void {
    this.snapshots.push(snapshot);
    this.persist?.(snapshot);
  }
}
