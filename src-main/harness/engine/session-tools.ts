import type { PermissionMode } from '@shared/domain/permissions';
import { plainShell, type ShellExecutor } from '../bash/shell-executor';
import { TaskManager } from '../tasks/task-manager';
import { FileHistory } from '../tools/file-history';
import { ReadFileState } from '../tools/read-file-state';
import type { SideModel, TodoItem, ToolUseContext } from '../tools/tool';
import type { EngineOptions } from './engine-options';

/**
 * What an agent's tools share across its turns: the files read (for edit checks), the file history
 * (for rewind), the todo list, the shell and its working directory, the background tasks.
 */
export class SessionTools {
  readonly readFileState = new ReadFileState();
  readonly fileHistory: FileHistory;
  readonly todos: { items: TodoItem[] } = { items: [] };
  readonly shell: ShellExecutor;
  /** The session's background tasks; they end with the session. */
  readonly tasks: TaskManager;
  /** The directory the next command starts in (a tool's `cd` moves it). */
  cwd: string;

  constructor(private readonly o: EngineOptions) {
    this.cwd = o.cwd;
    this.fileHistory = o.fileHistory ?? new FileHistory();
    this.shell = o.shell ?? plainShell(o.toolEnv);
    this.tasks = new TaskManager(o.sessionId, this.shell, o.taskEvents ?? {});
  }

  /** The context a turn's tool calls run in (the executor sets each call's id). */
  contextFor(turn: {
    signal: AbortSignal;
    permissionMode: PermissionMode;
    agentId: string;
    instructionsFor: ((file: string) => Promise<string | null>) | undefined;
    sideModel: SideModel;
  }): ToolUseContext {
    return {
      toolUseId: '',
      cwd: this.cwd,
      projectRoot: this.o.projectRoot,
      sessionDir: this.o.sessionDir,
      abortSignal: turn.signal,
      permissionMode: turn.permissionMode,
      readFileState: this.readFileState,
      fileHistory: this.fileHistory,
      todos: this.todos,
      env: this.o.toolEnv,
      shell: this.shell,
      tasks: this.tasks,
      agentId: turn.agentId,
      ...(this.o.agents ? { agents: this.o.agents } : {}),
      ...(this.o.team ? { team: this.o.team } : {}),
      ...(turn.instructionsFor ? { instructionsFor: turn.instructionsFor } : {}),
      sideModel: turn.sideModel,
    };
  }
}
