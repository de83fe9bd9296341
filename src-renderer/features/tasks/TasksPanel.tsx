import { memo, useLayoutEffect, useRef } from 'react';
import type { TaskView } from '@shared/domain/session';
import { stopTask } from '../../ipc/actions';
import { useStore } from '../../stores/store';

const EMPTY: TaskView[] = [];

const STATUS: Record<TaskView['status'], string> = {
  running: 'running',
  completed: 'done',
  failed: 'failed',
  killed: 'stopped',
};

const TaskRow = memo(function TaskRow({ task }: { task: TaskView }) {
  const output = useStore((s) => s.taskOutput[task.id] ?? '');
  const pre = useRef<HTMLPreElement>(null);
  // Follow the output as it grows, like a terminal.
  useLayoutEffect(() => {
    if (pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [output]);
  const exit = task.exitCode !== null && task.status !== 'running' ? `, exit ${task.exitCode}` : '';
  return (
    <li className={`task task-${task.status}`} aria-label={`Task ${task.description}`}>
      <details open={task.status === 'running'}>
        <summary>
          <span className="task-status" data-status={task.status}>
            {STATUS[task.status]}
            {exit}
          </span>
          <span className="task-command">{task.description}</span>
          {task.status === 'running' ? (
            <button
              type="button"
              className="small"
              onClick={(e) => {
                e.preventDefault();
                void stopTask(task.sessionId, task.id);
              }}
            >
              Stop
            </button>
          ) : null}
        </summary>
        {task.description !== task.command ? <code className="task-full-command">{task.command}</code> : null}
        <pre ref={pre} className="task-output" aria-label="Output">
          {output === '' ? '(no output yet)' : output}
        </pre>
      </details>
    </li>
  );
});

/** A session's background commands with their live output; running ones can be stopped. */
export function TasksPanel({ sessionId }: { sessionId: string }) {
  const tasks = useStore((s) => s.tasks[sessionId] ?? EMPTY);
  if (tasks.length === 0) return null;
  const running = tasks.filter((t) => t.status === 'running').length;
  return (
    <section className="tasks-panel" aria-label="Background tasks">
      <h3 className="tasks-title">
        Background tasks <span className="muted">({running} running)</span>
      </h3>
      <ul className="tasks">
        {tasks.map((t) => (
          <TaskRow key={t.id} task={t} />
        ))}
      </ul>
    </section>
  );
}
