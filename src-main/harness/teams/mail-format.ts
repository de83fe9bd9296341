import type { TeamMessage } from '@shared/domain/team';
import planModeText from './prompts/worker-plan-mode.md?raw';
import roleTemplate from './prompts/worker-role.md?raw';

/** How a message's sender is named to the agent reading it. */
function who(from: string): string {
  if (from === 'coordinator') return 'the coordinator';
  if (from === 'person') return 'the person supervising the team';
  return `worker "${from}"`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The part of a worker's system prompt that says who it is in the team and what it is for. */
export function workerRole(o: { name: string; instructions: string; planMode: boolean }): string {
  // Function replacers: a `$&` in the instructions must stay text.
  return roleTemplate
    .replaceAll('{{name}}', () => o.name)
    .replace('{{planMode}}', () => (o.planMode ? planModeText : ''))
    .replace(
      '{{instructions}}',
      () => o.instructions.trim() || '(No instructions beyond the messages you get.)',
    );
}

/** The user message that starts a worker's turn: the mail waiting for it, oldest first. */
export function workerPrompt(mail: readonly TeamMessage[]): string {
  return mail
    .map((m) => {
      if (m.kind === 'plan_approved')
        return `${capital(who(m.from))} approved your plan. You may now make changes: carry it out.${m.text.trim() ? `\nFeedback: ${m.text}` : ''}`;
      if (m.kind === 'plan_rejected')
        return `${capital(who(m.from))} rejected your plan.\nFeedback: ${m.text}\nRevise the plan and submit it again with SubmitPlan.`;
      return `Message from ${who(m.from)}:\n${m.text}`;
    })
    .join('\n\n---\n\n');
}

/** The user message that starts a coordinator's turn when its team wrote to it. */
export function coordinatorPrompt(mail: readonly TeamMessage[]): string {
  const parts = mail.map((m) => {
    if (m.kind === 'plan')
      return `From ${m.from}, a plan waiting for your approval (answer with SendMessage to "${m.from}", plan: "approve" or "reject"):\n${m.text}`;
    return `From ${m.from === 'person' ? 'the person supervising the team' : m.from}:\n${m.text}`;
  });
  return `Messages from your team:\n\n${parts.join('\n\n---\n\n')}`;
}
