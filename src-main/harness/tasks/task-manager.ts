import { randomBytes } from 'node:crypto';
import type { TaskView } from '@shared/domain/session';
import type { ShellExecutor } from '../bash/shell-executor';
import type { AgentEvent } from '../events/agent-event';

/** Background commands run until they end or are stopped (a dev server may run for hours). */
const BACKGROUND_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Output kept per task for the model to read; older output is dropped (and said so). */
const KEEP_CHARS = 1_000_000;
const TAIL_CHARS = 4000;

interface Task {
  view: TaskView;
  abort: AbortController;
  output: string;
  /** Characters dropped from the front of `output`. */
  dropped: number;
  /** Offset (in the full stream) up to which the model has read. */
  readTo: number;
  done: Promise<void>;
}

/** The owner's handle on a tracked task. */
export interface TrackedTask {
  id: string;
  append(text: string): void;
  end(status: 'completed' | 'failed' | 'killed'): void;
}

export interface TaskEvents {
  onChange?: (task: TaskView) => void;
  onOutput?: (taskId: string, text: string) => void;
  /** Events of background agents, for whoever watches the session (and its cost). */
  onAgentEvent?: (e: AgentEvent) => void;
}

/**
 * A session's background tasks (`local_bash`): each runs through the session's shell (PTY, sandbox),
 * keeps its output for `BashOutput` to read in pieces, can be stopped, and ends with the session.
 */
export class TaskManager {
  private readonly tasks = new Map<string, Task>();

  constructor(
    private readonly sessionId: string,
    private readonly shell: ShellExecutor,
    private readonly events: TaskEvents = {},
  ) {}

  startBash(command: string, o: { cwd: string; description: string }): TaskView {
    return this.start('local_bash', o.description, command, (task) => this.run(task, command, o.cwd));
  }

  /**
   * A background agent (`local_agent`): an Agent call with `run_in_background`. It runs on its own
   * until it ends or is stopped; its events go to `onAgentEvent`, its final answer to the output the
   * model reads with TaskOutput.
   */
  startAgent(o: {
    description: string;
    prompt: string;
    run: (
      signal: AbortSignal,
    ) => AsyncGenerator<AgentEvent, { text: string; reason: string; agentId: string }>;
  }): TaskView {
    return this.start('local_agent', o.description, o.prompt, (task) =>
      this.runAgent(task, o.run(task.abort.signal)),
    );
  }

  /**
   * A task whose work runs elsewhere (an in-process teammate): listed with the others, its output
   * what the owner appends, stopped through `stop`, ended when the owner says.
   */
  track(o: {
    kind: TaskView['kind'];
    description: string;
    command: string;
    agentId?: string;
    stop: () => void;
  }): TrackedTask {
    let finish: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => (finish = resolve));
    const view = this.start(o.kind, o.description, o.command, () => ended);
    const task = this.tasks.get(view.id);
    if (!task) throw new Error(`Task ${view.id} vanished`);
    if (o.agentId !== undefined) task.view.agentId = o.agentId;
    task.abort.signal.addEventListener('abort', o.stop, { once: true });
    return {
      id: view.id,
      append: (text) => this.append(task, text),
      end: (status) => {
        if (task.view.status !== 'running') return;
        task.view.status = status;
        task.view.endedAt = new Date().toISOString();
        finish();
        this.events.onChange?.({ ...task.view });
      },
    };
  }

  private start(
    kind: TaskView['kind'],
    description: string,
    command: string,
    run: (task: Task) => Promise<void>,
  ): TaskView {
    const prefix =
      kind === 'local_bash'
        ? 'bash'
        : kind === 'in_process_teammate'
          ? 'teammate'
          : kind === 'dream'
            ? 'dream'
            : 'agent';
    const id = `${prefix}_${randomBytes(6).toString('hex')}`;
    const view: TaskView = {
      id,
      sessionId: this.sessionId,
      kind,
      description,
      command,
      status: 'running',
      startedAt: new Date().toISOString(),
      endedAt: null,
      exitCode: null,
      outputTail: '',
    };
    const task: Task = {
      view,
      abort: new AbortController(),
      output: '',
      dropped: 0,
      readTo: 0,
      done: Promise.resolve(),
    };
    this.tasks.set(id, task);
    task.done = run(task);
    this.events.onChange?.({ ...view });
    return { ...view };
  }

  private async runAgent(
    task: Task,
    gen: AsyncGenerator<AgentEvent, { text: string; reason: string; agentId: string }>,
  ): Promise<void> {
    try {
      for (;;) {
        const step = await gen.next();
        if (step.done) {
          task.view.agentId = step.value.agentId;
          this.append(task, step.value.text);
          task.view.status =
            step.value.reason === 'completed'
              ? 'completed'
              : step.value.reason === 'aborted'
                ? 'killed'
                : 'failed';
          break;
        }
        const e = step.value;
        if (e.type === 'agent_started' && task.view.agentId === undefined) {
          task.view.agentId = e.info.agentId;
          this.events.onChange?.({ ...task.view });
        }
        this.events.onAgentEvent?.(e);
      }
    } catch (error) {
      this.append(task, `\n${(error as Error).message}\n`);
      task.view.status = 'failed';
    }
    task.view.endedAt = new Date().toISOString();
    this.events.onChange?.({ ...task.view });
  }

  private async run(task: Task, command: string, cwd: string): Promise<void> {
    // The task keeps its own bounded output; the shell need not keep a copy.
    const gen = this.shell.run(command, {
      cwd,
      timeoutMs: BACKGROUND_TIMEOUT_MS,
      signal: task.abort.signal,
      keepChars: 0,
    });
    try {
      for (;;) {
        const step = await gen.next();
        if (step.done) {
          task.view.exitCode = step.value.exitCode;
          const r = step.value;
          if (r.notes?.length) this.append(task, `\n${r.notes.join('\n')}\n`);
          task.view.status = r.aborted ? 'killed' : !r.timedOut && r.exitCode === 0 ? 'completed' : 'failed';
          break;
        }
        this.append(task, step.value);
      }
    } catch (error) {
      this.append(task, `\n${(error as Error).message}\n`);
      task.view.status = 'failed';
    }
    task.view.endedAt = new Date().toISOString();
    this.events.onChange?.({ ...task.view });
  }

  private append(task: Task, text: string): void {
    task.output += text;
    if (task.output.length > KEEP_CHARS) {
      const cut = task.output.length - KEEP_CHARS;
      task.output = task.output.slice(cut);
      task.dropped += cut;
    }
    task.view.outputTail = task.output.slice(-TAIL_CHARS);
    this.events.onOutput?.(task.view.id, text);
  }

  /** Output the model has not read yet (optionally only lines matching `filter`), and the status. */
  readNew(
    id: string,
    filter?: RegExp,
  ): { output: string; status: TaskView['status']; exitCode: number | null; skipped: number } | null {
    const task = this.tasks.get(id);
    if (!task) return null;
    const end = task.dropped + task.output.length;
    const from = Math.max(task.readTo, task.dropped);
    const skipped = from - task.readTo;
    let output = task.output.slice(from - task.dropped);
    task.readTo = end;
    if (filter)
      output = output
        .split('\n')
        .filter((l) => filter.test(l))
        .join('\n');
    return { output, status: task.view.status, exitCode: task.view.exitCode, skipped };
  }

  /** Waits until the task ends, the time is up or the signal aborts (whichever comes first). */
  async waitFor(id: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    const task = this.tasks.get(id);
    if (!task || task.view.status !== 'running') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      task.done,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        onAbort = resolve;
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }

  kill(id: string): boolean {
    const task = this.tasks.get(id);
    if (task?.view.status !== 'running') return false;
    task.abort.abort();
    return true;
  }

  list(): TaskView[] {
    return [...this.tasks.values()].map((t) => ({ ...t.view }));
  }

  /** Stops every running task and waits for each to end: tasks end with their session. */
  async killAll(): Promise<void> {
    for (const t of this.tasks.values()) if (t.view.status === 'running') t.abort.abort();
    await Promise.allSettled([...this.tasks.values()].map((t) => t.done));
  }
}
