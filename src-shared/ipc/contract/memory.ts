import { z } from 'zod';
import {
  ConsolidateResult,
  LoadedMemory,
  MemoryFileContent,
  MemoryFileInfo,
  MemoryName,
  MemoryRootIndex,
  MemoryScope,
  MemoryTrashEntry,
  MemoryTree,
  MemoryType,
  MemoryVersion,
  MemoryWriteResult,
} from '../../domain/memory';
import { SessionId } from '../../domain/session';
import { channel, ProjectRef } from './common';

/**
 * The memory browser: instruction files and memory files of a project, addressed by
 * `{scope, root, name}` (never a raw path). Bad names are refused with INVALID_INPUT; a write based on
 * an old version comes back as a conflict carrying the disk's text, never a silent overwrite.
 */

const ProjectId = z.string().min(1).max(500);
/** Memory files are small notes; a CLAUDE.md loads up to 4 MiB, but the IPC frame is capped lower. */
const Text = z.string().max(1_900_000);

const FileInput = z.strictObject({
  projectId: ProjectId,
  scope: MemoryScope,
  root: MemoryRootIndex.default(0),
  name: MemoryName,
});

export const requests = {
  /** Every scope with its roots and files (auto-memory with MEMORY.md first). */
  'memory.tree': channel(ProjectRef, MemoryTree),
  'memory.read': channel(FileInput, MemoryFileContent),
  /**
   * Atomic write (temp file + rename). `baseVersion` is the version the editor loaded, or null for
   * "the file must not exist yet"; a mismatch answers `{kind: 'conflict'}` with the disk's text.
   * Memory files' frontmatter is validated: INVALID_INPUT with one detail per bad field.
   */
  'memory.write': channel(
    FileInput.extend({ text: Text, baseVersion: MemoryVersion.nullable() }),
    MemoryWriteResult,
  ),
  /** A new file from the template for its scope (and for memory files, its type). CONFLICT if it exists. */
  'memory.create': channel(FileInput.extend({ type: MemoryType.optional() }), MemoryFileContent),
  /** Renames inside the same scope root. CONFLICT if the new name is taken. */
  'memory.rename': channel(FileInput.extend({ newName: MemoryName }), MemoryFileInfo),
  /** Moves the file to the `.trash/` folder of its scope root; restorable. */
  'memory.delete': channel(
    FileInput.extend({ baseVersion: MemoryVersion.nullable().optional() }),
    MemoryTrashEntry,
  ),
  /** The deleted files of a scope, newest first. */
  'memory.trash': channel(
    z.strictObject({ projectId: ProjectId, scope: MemoryScope, root: MemoryRootIndex.default(0) }),
    z.array(MemoryTrashEntry),
  ),
  /** Puts a trashed file back under its name. CONFLICT if a file of that name exists again. */
  'memory.restore': channel(
    z.strictObject({
      projectId: ProjectId,
      scope: MemoryScope,
      root: MemoryRootIndex.default(0),
      id: z.string().min(1).max(200),
    }),
    MemoryFileInfo,
  ),
  /** The files that went into a session's context, in precedence order, with which import pulled each in. */
  'memory.loaded': channel(z.strictObject({ sessionId: SessionId }), LoadedMemory),
  /** "Consolidate now": autoDream's consolidation, skipping its time and session gates (not its lock). */
  'memory.consolidate': channel(ProjectRef, ConsolidateResult),
  /** Starts watching the project's scope roots (`memory.changed`); counted, each watch needs an unwatch. */
  'memory.watch': channel(ProjectRef, z.object({ watching: z.boolean() })),
  'memory.unwatch': channel(ProjectRef, z.object({ watching: z.boolean() })),
} as const;

export const events = {
  /**
   * A file in a watched scope root changed on disk (by the model, another program or this browser).
   * Debounced; `name` is relative to the root. Re-read the file to learn its new text and version.
   */
  'memory.changed': z.object({
    projectId: z.string(),
    scope: MemoryScope,
    root: z.number(),
    name: z.string(),
  }),
} as const;
