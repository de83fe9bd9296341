/**
 * What the instruction loader hands the engine: every file that went into the context, in the order
 * it was read (broadest first, so later files take precedence), with the import that pulled it in.
 */
export type InstructionScope =
  'managed' | 'user' | 'project' | 'local' | 'rules' | 'auto-memory' | 'team-memory';

export interface LoadedFile {
  scope: InstructionScope;
  /** Absolute path as found or as imported (symlinks not resolved, so the person recognises it). */
  path: string;
  /** The file whose `@path` import pulled this one in; null for a file found by discovery. */
  importedBy: string | null;
  /** The text as the model sees it: frontmatter of rules and block HTML comments removed. */
  text: string;
}

export interface LoadedInstructions {
  files: LoadedFile[];
  /** Plain-English notes about files skipped: too large, missing imports, cycles, too many hops. */
  notices: string[];
}

/** Where to look. Every root is injectable so tests run on temp folders. */
export interface InstructionRoots {
  /** The project folder: its ancestors (root first) and itself are searched. */
  projectDir: string;
  /** The person's home: `~/.claude/CLAUDE.md`, `~/.claude/rules/`, and `@~/...` imports. */
  homeDir: string;
  /** `$CARAPACE_HOME`: its `CLAUDE.md` is user-level. */
  carapaceHome: string;
  /** Folders whose `CLAUDE.md` is managed policy; default `/etc/claude-code` and `/etc/carapace`. */
  managedDirs?: readonly string[] | undefined;
}
