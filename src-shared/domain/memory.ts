import { z } from 'zod';

/**
 * The memory browser's view of instruction files (CLAUDE.md and rules) and memory files. The renderer
 * never names a file by an absolute path: it says which scope, which of that scope's roots (a scope such
 * as Project may span several folders: every ancestor of the project) and a name relative to that root.
 * The main process resolves and validates every such reference.
 */

/** The scopes, in the order instruction files are loaded (broadest first), then the memory folders. */
export const MemoryScope = z.enum([
  'managed',
  'user',
  'project',
  'local',
  'rules',
  'auto-memory',
  'team-memory',
]);
export type MemoryScope = z.infer<typeof MemoryScope>;

/** The four kinds of memory a memory file's frontmatter may declare. */
export const MemoryType = z.enum(['user', 'feedback', 'project', 'reference']);
export type MemoryType = z.infer<typeof MemoryType>;

/** A relative name inside a scope's root. The main process checks it further (no `..`, `.md`, no `.git`). */
export const MemoryName = z.string().min(1).max(1024);

/** Which of a scope's roots; 0 for scopes with one root. */
export const MemoryRootIndex = z.number().int().min(0).max(255);

export const MemoryFileRef = z.strictObject({
  scope: MemoryScope,
  root: MemoryRootIndex.default(0),
  name: MemoryName,
});
export type MemoryFileRef = z.infer<typeof MemoryFileRef>;

/** A content hash: a write names the version it was based on, so a change on disk is never overwritten. */
export const MemoryVersion = z.string().min(1).max(128);
export type MemoryVersion = z.infer<typeof MemoryVersion>;

export const MemoryFileInfo = z.object({
  scope: MemoryScope,
  root: z.number(),
  name: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  /** Whole days since the file last changed (0 = today). */
  ageDays: z.number(),
  /** From the frontmatter of a memory file, when it has a valid one. */
  type: MemoryType.optional(),
  description: z.string().optional(),
  /** Set when a memory file's frontmatter does not parse or misses required fields. */
  invalid: z.boolean().optional(),
});
export type MemoryFileInfo = z.infer<typeof MemoryFileInfo>;

/** One folder a scope reads from. `path` is for display only; requests name the root by its index. */
export const MemoryRoot = z.object({
  index: z.number(),
  path: z.string(),
  label: z.string(),
  /** Managed files are policy: shown, never edited. */
  writable: z.boolean(),
  /** Whether the folder exists on disk at all. */
  exists: z.boolean(),
});
export type MemoryRoot = z.infer<typeof MemoryRoot>;

export const MemoryScopeView = z.object({
  scope: MemoryScope,
  label: z.string(),
  roots: z.array(MemoryRoot),
  /** In display order (for auto-memory, MEMORY.md first). */
  files: z.array(MemoryFileInfo),
  /** Whether the model's auto memory is switched off (auto-memory and team-memory scopes only). */
  disabled: z.boolean().optional(),
});
export type MemoryScopeView = z.infer<typeof MemoryScopeView>;

export const MemoryTree = z.object({
  projectId: z.string(),
  scopes: z.array(MemoryScopeView),
});
export type MemoryTree = z.infer<typeof MemoryTree>;

export const MemoryFileContent = z.object({
  scope: MemoryScope,
  root: z.number(),
  name: z.string(),
  text: z.string(),
  version: MemoryVersion,
  writable: z.boolean(),
});
export type MemoryFileContent = z.infer<typeof MemoryFileContent>;

/**
 * The outcome of a write. A file changed on disk since `baseVersion` is a conflict: nothing is written and
 * the disk's text comes back (null when the file was deleted), so the editor can show both versions.
 */
export const MemoryWriteResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), file: MemoryFileInfo, version: MemoryVersion }),
  z.object({
    kind: z.literal('conflict'),
    diskText: z.string().nullable(),
    diskVersion: MemoryVersion.nullable(),
    message: z.string(),
  }),
]);
export type MemoryWriteResult = z.infer<typeof MemoryWriteResult>;

/** A deleted file kept in its scope's `.trash/` folder. */
export const MemoryTrashEntry = z.object({
  scope: MemoryScope,
  root: z.number(),
  /** Identifies the deletion (a file deleted twice has two entries). */
  id: z.string(),
  /** The name it had, and gets back on restore. */
  name: z.string(),
  deletedAtMs: z.number(),
  size: z.number(),
});
export type MemoryTrashEntry = z.infer<typeof MemoryTrashEntry>;

/** Where a loaded file came from, as the harness records it for a session. */
export const LoadedScope = MemoryScope;

/** One file that went into a session's context, in precedence order. */
export const LoadedMemoryFile = z.object({
  scope: LoadedScope,
  /** Absolute path, shown to the person; the browser opens it by `ref` when the file is in a known scope. */
  path: z.string(),
  /** The file whose `@import` pulled this one in; null for files loaded on their own. */
  importedBy: z.string().nullable(),
  bytes: z.number(),
  /** The file as a browser reference, when it lies in one of the project's scope roots. */
  ref: z.object({ scope: MemoryScope, root: z.number(), name: z.string() }).nullable(),
});
export type LoadedMemoryFile = z.infer<typeof LoadedMemoryFile>;

export const LoadedMemory = z.object({
  sessionId: z.string(),
  files: z.array(LoadedMemoryFile),
  /** What the loader noticed (a file over 4 MiB skipped, an import cycle, a 5th hop). */
  notices: z.array(z.string()),
});
export type LoadedMemory = z.infer<typeof LoadedMemory>;

export const ConsolidateResult = z.object({
  /** Whether a consolidation ran (false when another process holds the lock, or memory is off). */
  ran: z.boolean(),
  message: z.string(),
});
export type ConsolidateResult = z.infer<typeof ConsolidateResult>;
