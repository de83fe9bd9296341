import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readTranscript } from '../harness/session/transcript-file';
import { readJsonFile, writeJsonFileAtomic } from '../platform/json-file';
import type { Logger } from '../platform/logger';
import { metaFromLines, SessionMeta } from './session-meta';

const IndexFile = z.object({
  version: z.literal(1),
  sessions: z.record(z.string(), z.object({ meta: SessionMeta, size: z.number(), mtimeMs: z.number() })),
});
type IndexFile = z.infer<typeof IndexFile>;

export const INDEX_NAME = 'sessions-index.json';

/**
 * A cache of the session list of one project. The transcripts are the truth: an entry is trusted only
 * while its file's size and mtime are unchanged, a missing or corrupt index is rebuilt from them, and
 * deleting it loses nothing.
 */
export class SessionIndex {
  private data: IndexFile;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {
    const read = readJsonFile(path.join(dir, INDEX_NAME), IndexFile);
    this.data = read.kind === 'ok' ? read.value : { version: 1, sessions: {} };
  }

  /**
   * Every session in the folder, re-reading only transcripts that changed since they were indexed.
   * `known` answers for sessions already in memory (their files change with every message), so those
   * are never re-parsed.
   */
  list(
    known: (id: string) => SessionMeta | undefined = () => undefined,
  ): { meta: SessionMeta; file: string }[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    let changed = false;
    const seen = new Set<string>();
    const out: { meta: SessionMeta; file: string }[] = [];
    for (const name of names) {
      const id = path.basename(name, '.jsonl');
      const file = path.join(this.dir, name);
      seen.add(id);
      let stat;
      try {
        stat = statSync(file);
      } catch {
        continue;
      }
      const live = known(id);
      if (live) {
        const prev = this.data.sessions[id];
        if (
          !prev ||
          prev.size !== stat.size ||
          prev.mtimeMs !== stat.mtimeMs ||
          JSON.stringify(prev.meta) !== JSON.stringify(live)
        ) {
          this.data.sessions[id] = { meta: live, size: stat.size, mtimeMs: stat.mtimeMs };
          changed = true;
        }
        out.push({ meta: live, file });
        continue;
      }
      const cached = this.data.sessions[id];
      if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) {
        out.push({ meta: cached.meta, file });
        continue;
      }
      try {
        const meta = metaFromLines(file, readTranscript(file).lines, stat.mtime.toISOString());
        this.data.sessions[id] = { meta, size: stat.size, mtimeMs: stat.mtimeMs };
        changed = true;
        out.push({ meta, file });
      } catch (error) {
        this.logger.warn(`Skipping unreadable transcript ${file}: ${(error as Error).message}`);
      }
    }
    for (const id of Object.keys(this.data.sessions)) {
      if (!seen.has(id)) {
        delete this.data.sessions[id];
        changed = true;
      }
    }
    if (changed) this.save();
    return out;
  }

  /** Records a session's fresh metadata after its file changed (end of a turn, a rename). */
  update(file: string, meta: SessionMeta): void {
    try {
      const stat = statSync(file);
      this.data.sessions[meta.id] = { meta, size: stat.size, mtimeMs: stat.mtimeMs };
      this.save();
    } catch (error) {
      this.logger.warn(`Could not index ${file}: ${(error as Error).message}`);
    }
  }

  private save(): void {
    try {
      writeJsonFileAtomic(path.join(this.dir, INDEX_NAME), this.data);
    } catch (error) {
      // The index is only a cache: failing to write it costs speed, never data.
      this.logger.warn(`Could not save the session index: ${(error as Error).message}`);
    }
  }
}
