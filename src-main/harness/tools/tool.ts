import type { z } from 'zod';
import type { ImageBlock, TextBlock, ToolDisplay } from '@shared/domain/messages';
import type { PermissionMode } from '@shared/domain/permissions';
import type { ShellExecutor } from '../bash/shell-executor';
import type { TaskManager } from '../tasks/task-manager';
import type { FileHistory } from './file-history';
import type { ReadFileState } from './read-file-state';

/** What a tool hands back to the model, plus what the UI shows of it. */
export interface ToolOutput {
  content: string | (TextBlock | ImageBlock)[];
  isError?: boolean;
  display?: ToolDisplay;
  /**
   * A change to the context for the tools that run after this one (e.g. a new cwd). Honoured only for
   * tools that are not concurrency-safe: parallel tools must not race on shared state.
   */
  contextModifier?: (ctx: ToolUseContext) => ToolUseContext;
}

export interface ToolProgress {
  /** A line of live output, shown on the tool's card while it runs. */
  text: string;
}

/** Everything a tool may touch. Tools get capabilities here, never through imports. */
export interface ToolUseContext {
  /** The id of the tool_use block being run (set per call by the executor). */
  toolUseId: string;
  /** Where relative paths resolve and commands run. */
  cwd: string;
  /** The project root, fixed for the session. */
  projectRoot: string;
  /** Where this session keeps its files (large outputs). */
  sessionDir: string;
  abortSignal: AbortSignal;
  permissionMode: PermissionMode;
  readFileState: ReadFileState;
  fileHistory: FileHistory;
  /** The session's todo list, owned by TodoWrite. */
  todos: { items: TodoItem[] };
  /** Environment for child processes, already stripped of secrets. */
  env: NodeJS.ProcessEnv;
  /** How Bash commands run (PTY, sandbox, cwd tracking). */
  shell: ShellExecutor;
  /**
   * Set per call by the executor when the permission gate resolved the call's paths: where they
   * really led (symlinks followed). File tools refuse any other destination at use time.
   */
  checkedPaths?: readonly string[];
  /** The session's background tasks, where there are any. */
  tasks?: TaskManager;
}

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm: string;
}

export type PermissionResult =
  { behavior: 'allow' } | { behavior: 'deny'; message: string } | { behavior: 'ask'; message: string };

/**
 * One tool, in six groups: definition, safety, execution, permissions, UI (a renderer-side registry
 * keyed by `name`), lifecycle (hooks run around `call`, by the executor).
 */
export interface Tool<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  /** The prompt text the model reads; kept in a sibling .md file. */
  readonly description: string;
  readonly inputSchema: S;
  isReadOnly(input: z.infer<S>): boolean;
  isConcurrencySafe(input: z.infer<S>): boolean;
  isDestructive(input: z.infer<S>): boolean;
  /** The tool's own view; the permission system still decides. */
  checkPermissions(input: z.infer<S>, ctx: ToolUseContext): Promise<PermissionResult>;
  /** Yields progress, returns the result. Throwing is allowed: the executor turns it into an error result. */
  call(input: z.infer<S>, ctx: ToolUseContext): AsyncGenerator<ToolProgress, ToolOutput>;
  /** Paths a call writes, for the permission gate (Write/Edit); empty for tools that write nothing. */
  writesTo(input: z.infer<S>, ctx: ToolUseContext): string[];
  /**
   * Output longer than this is saved to a file in the session folder and the model gets its head, tail
   * and path instead.
   */
  readonly maxResultChars: number;
}

export const DEFAULT_MAX_RESULT_CHARS = 30_000;

export type ToolDef<S extends z.ZodType> = Pick<Tool<S>, 'name' | 'description' | 'inputSchema' | 'call'> &
  Partial<Omit<Tool<S>, 'name' | 'description' | 'inputSchema' | 'call'>>;

/**
 * Fills in the fail-closed defaults: not concurrency-safe, not read-only, not destructive, and
 * `checkPermissions` allowing (the outer permission system still decides).
 */
export function buildTool<S extends z.ZodType>(def: ToolDef<S>): Tool<S> {
  return {
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    isDestructive: () => false,
    checkPermissions: () => Promise.resolve({ behavior: 'allow' }),
    writesTo: () => [],
    maxResultChars: DEFAULT_MAX_RESULT_CHARS,
    ...def,
  };
}

/** Any tool, whatever its schema: how registries and the executor hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a heterogenous list needs an erased input type
export type AnyTool = Tool<any>;
