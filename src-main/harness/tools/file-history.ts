export interface FileSnapshot {
  path: string;
  /** Content before the change; null when the file did not exist. */
  before: string | null;
  toolUseId: string;
  at: number;
}

/**
 * Before-images of every file a tool changed, in order, so a rewind can put files back as they were
 * at a message.
 */
export class FileHistory {
  readonly snapshots: FileSnapshot[] = [];

  record(snapshot: FileSnapshot): void {
    this.snapshots.push(snapshot);
  }
}
