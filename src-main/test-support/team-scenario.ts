import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { text, toolUse } from './engine';

type StepInput = ScenarioInput['steps'][number];
type ReplyInput = StepInput['reply'];

/** What the coordinator's system prompt starts with (a scripted step's `systemText`). */
export const COORDINATOR = '# Coordinator mode';

/** What worker `name`'s system prompt starts with. */
export const worker = (name: string): string => `# Team member: ${name}`;

/** The coordinator, asked `prompt`, creates one general-purpose worker `name` without instructions. */
export function createsWorker(prompt: string, name: string): StepInput {
  return {
    when: { systemText: COORDINATOR, lastUserText: prompt },
    reply: {
      content: [
        toolUse('TeamCreate', { workers: [{ name, agent_type: 'general-purpose', instructions: '' }] }),
      ],
      stop_reason: 'tool_use',
    },
  };
}

/**
 * A one-worker team at work: asked `prompt`, the coordinator creates worker `name`, sends it `task`
 * (tool use id `s1`) and ends its turn saying `waiting`; the worker answers `task` with `reply`.
 */
export function delegatesToWorker(o: {
  prompt: string;
  name: string;
  task: string;
  waiting: string;
  reply: ReplyInput;
}): StepInput[] {
  return [
    createsWorker(o.prompt, o.name),
    {
      when: { systemText: COORDINATOR, lastUserText: 'Created a worker' },
      reply: {
        content: [toolUse('SendMessage', { to: o.name, message: o.task }, 's1')],
        stop_reason: 'tool_use',
      },
    },
    {
      when: { systemText: COORDINATOR, lastUserText: `Sent to ${o.name}` },
      reply: { content: [text(o.waiting)] },
    },
    { when: { systemText: worker(o.name), lastUserText: o.task }, reply: o.reply },
  ];
}
