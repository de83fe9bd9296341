import type { StateCreator } from 'zustand';
import type { TaskOutputDelta, TaskView } from '@shared/domain/session';

/** Output kept per task in the window: the tail is what a person watches. */
const KEEP_CHARS = 16_384;

export interface TasksSlice {
  /** Background tasks by session, in start order. */
  tasks: Record<string, TaskView[]>;
  /** Live output tail by task id. */
  taskOutput: Record<string, string>;
  setTasks(sessionId: string, tasks: TaskView[]): void;
  upsertTask(task: TaskView): void;
  appendTaskOutput(deltas: readonly TaskOutputDelta[]): void;
}

export const createTasksSlice: StateCreator<TasksSlice> = (set) => ({
  tasks: {},
  taskOutput: {},
  setTasks: (sessionId, tasks) =>
    set((s) => ({
      tasks: { ...s.tasks, [sessionId]: tasks },
      taskOutput: {
        ...s.taskOutput,
        ...Object.fromEntries(tasks.map((t) => [t.id, t.outputTail.slice(-KEEP_CHARS)])),
      },
    })),
  upsertTask: (task) =>
    set((s) => {
      const list = s.tasks[task.sessionId] ?? [];
      const i = list.findIndex((t) => t.id === task.id);
      const next = i < 0 ? [...list, task] : list.map((t) => (t.id === task.id ? task : t));
      const known = s.taskOutput[task.id];
      return {
        tasks: { ...s.tasks, [task.sessionId]: next },
        // The tail in the view is fresher than deltas that may have been missed.
        taskOutput:
          known === undefined || task.outputTail.length > known.length
            ? { ...s.taskOutput, [task.id]: task.outputTail.slice(-KEEP_CHARS) }
            : s.taskOutput,
      };
    }),
  appendTaskOutput: (deltas) => {
    if (deltas.length === 0) return;
    set((s) => {
      const taskOutput = { ...s.taskOutput };
      for (const d of deltas)
        taskOutput[d.taskId] = ((taskOutput[d.taskId] ?? '') + d.text).slice(-KEEP_CHARS);
      return { taskOutput };
    });
  },
});

const NONE: readonly TaskView[] = [];

/** A session's background tasks still running (background Bash, background agents). */
export function runningTasks(tasks: readonly TaskView[] | undefined): readonly TaskView[] {
  const running = (tasks ?? NONE).filter((t) => t.status === 'running');
  return running.length === 0 ? NONE : running;
}

const TASK_KINDS: Partial<Record<TaskView['kind'], string>> = {
  local_bash: 'Bash',
  local_agent: 'Agent',
  remote_agent: 'Agent',
  in_process_teammate: 'Teammate',
};

/** A task in a few words for a tooltip: "Bash: npm test", "Agent: Explore the parser". */
export function taskLabel(task: TaskView): string {
  const what = TASK_KINDS[task.kind] ?? 'Task';
  const text = (task.description || task.command).replace(/\s+/g, ' ').trim();
  return `${what}: ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
}
