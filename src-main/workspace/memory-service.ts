import type { ConsolidateResult, LoadedMemory, LoadedMemoryFile } from '@shared/domain/memory';
import type { LoadedInstructions } from '../harness/memory/instructions';
import { AppError } from '../platform/errors';
import type { MemoryFiles } from './memory-files';

export interface MemoryServiceDeps {
  files: MemoryFiles;
  /** The session's project folder (NOT_FOUND for an unknown session). */
  projectRootOf(sessionId: string): string;
  /** What went into the session's context; null while the session is not loaded. */
  loadedContext(sessionId: string): LoadedInstructions | null;
  /** autoDream's consolidation for a project folder; absent until the dream task is wired in. */
  consolidate?: ((projectRoot: string) => Promise<ConsolidateResult>) | undefined;
  projectRoot(projectId: string): string;
  /** Run at dispose (event subscriptions). */
  disposers?: (() => void)[] | undefined;
}

/**
 * The memory browser's back end: the files (`MemoryFiles`), what a session loaded, and "Consolidate
 * now". A thin seam, so the IPC handlers need one service and tests can give each part on its own.
 */
export class MemoryService {
  constructor(private readonly deps: MemoryServiceDeps) {}

  get files(): MemoryFiles {
    return this.deps.files;
  }

  /** The session's loaded files in precedence order, each with the import that pulled it in. */
  loaded(sessionId: string): LoadedMemory {
    const projectRoot = this.deps.projectRootOf(sessionId);
    const context = this.deps.loadedContext(sessionId) ?? { files: [], notices: [] };
    const refs = this.deps.files.refsFor(
      projectRoot,
      context.files.map((f) => f.path),
    );
    const files: LoadedMemoryFile[] = context.files.map((f, i) => ({
      scope: f.scope,
      path: f.path,
      importedBy: f.importedBy,
      bytes: Buffer.byteLength(f.text, 'utf8'),
      ref: refs[i] ?? null,
    }));
    return { sessionId, files, notices: [...context.notices] };
  }

  async consolidate(projectId: string): Promise<ConsolidateResult> {
    const projectRoot = this.deps.projectRoot(projectId);
    if (!this.deps.consolidate)
      throw new AppError('UNAVAILABLE', 'Consolidating memory is not available in this build yet.');
    return this.deps.consolidate(projectRoot);
  }

  dispose(): void {
    for (const d of this.deps.disposers ?? []) d();
    this.deps.files.dispose();
  }
}
