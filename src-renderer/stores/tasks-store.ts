import { create } from 'zustand';
import type { TaskOutputDelta, TaskView } from '@shared/domain/session';

/** Output kept per task in the window: the tail is what a person watches. */
const KEEP_CHARS = 16_384;

export interface TasksState {
  /** Background tasks by session, in start order. */
  bySession: Record<string, TaskView[]>;
  /** Live output tail by task id. */
  output: Record<string, string>;
}

export const useTasks = create<TasksState>()(() => ({ bySession: {}, output: {} }));

export function setTasks(sessionId: string, tasks: TaskView[]): void {
  useTasks.setState((s) => ({
    bySession: { ...s.bySession, [sessionId]: tasks },
    output: { ...s.output, ...Object.fromEntries(tasks.map((t) => [t.id, t.outputTail.slice(-KEEP_CHARS)])) },
  }));
}

export function upsertTask(task: TaskView): void {
  useTasks.setState((s) => {
    const list = s.bySession[task.sessionId] ?? [];
    const i = list.findIndex((t) => t.id === task.id);
    const next = i < 0 ? [...list, task] : list.map((t) => (t.id === task.id ? task : t));
    const known = s.output[task.id];
    return {
      bySession: { ...s.bySession, [task.sessionId]: next },
      // The tail in the view is fresher than deltas that may have been missed.
      output:
        known === undefined || task.outputTail.length > known.length
          ? { ...s.output, [task.id]: task.outputTail.slice(-KEEP_CHARS) }
          : s.output,
    };
  });
}

export function appendTaskOutput(deltas: readonly TaskOutputDelta[]): void {
  if (deltas.length === 0) return;
  useTasks.setState((s) => {
    const output = { ...s.output };
    for (const d of deltas) output[d.taskId] = ((output[d.taskId] ?? '') + d.text).slice(-KEEP_CHARS);
    return { output };
  });
}
