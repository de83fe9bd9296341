import { createHash } from 'node:crypto';

export interface ReadRecord {
  /** sha256 of the bytes read. */
  hash: string;
  mtimeMs: number;
}

export function hashContent(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * What this session has read, by absolute path: the basis of "read before you edit" and
 * "the file changed since you read it".
 */
export class ReadFileState {
  private readonly records = new Map<string, ReadRecord>();

  get(path: string): ReadRecord | undefined {
    return this.records.get(path);
  }

  set(path: string, record: ReadRecord): void {
    this.records.set(path, record);
  }

  clone(): ReadFileState {
    const copy = new ReadFileState();
    for (const [k, v] of this.records) copy.set(k, v);
    return copy;
  }
}
