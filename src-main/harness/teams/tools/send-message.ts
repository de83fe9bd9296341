import { z } from 'zod';
import type { TeamMessage } from '@shared/domain/team';
import { buildTool, type ToolOutput } from '../../tools/tool';
import description from '../prompts/send-message.md?raw';
import { coordinatorTeam, NO_TEAM, refusal } from './team-tool-error';

const inputSchema = z.strictObject({
  to: z.string().min(1).max(64).describe('The worker’s name, or "*" for every worker'),
  message: z.string().max(100_000).describe('What to tell it: its task, an answer, or feedback on its plan'),
  wait: z
    .boolean()
    .optional()
    .describe('Wait until each addressed worker writes back, and return the replies (default false)'),
  plan: z
    .enum(['approve', 'reject'])
    .optional()
    .describe('Decide the plan this worker sent: approve it, or reject it (the message is the feedback)'),
});

function replies(messages: readonly TeamMessage[]): string {
  if (messages.length === 0) return 'No replies: the workers ended, or the wait was stopped.';
  return messages
    .map((m) => `From ${m.from}${m.kind === 'plan' ? ' (a plan waiting for your approval)' : ''}:\n${m.text}`)
    .join('\n\n---\n\n');
}

/**
 * SendMessage: the coordinator writes to a worker (or all), optionally deciding its plan, and
 * optionally waits for the replies. Concurrency-safe, so several waits in one response overlap.
 */
export const SendMessageTool = buildTool({
  name: 'SendMessage',
  description,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // eslint-disable-next-line require-yield -- no progress
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const team = coordinatorTeam(ctx);
    if (!team) return NO_TEAM;
    try {
      // Replies count from here: an answer to an earlier message that lands now still counts.
      const since = team.lastSeq();
      let said: string;
      if (input.plan !== undefined) {
        if (input.to.trim() === '*') return { content: 'Decide one worker’s plan at a time.', isError: true };
        const decided = team.decidePlan(input.to, input.plan === 'approve', input.message);
        said =
          input.plan === 'approve'
            ? `Approved ${decided.to}'s plan; it leaves plan mode and carries it out.`
            : `Rejected ${decided.to}'s plan; it will revise it from your feedback.`;
      } else {
        if (input.message.trim() === '') return { content: 'The message is empty.', isError: true };
        const sent = team.send(input.to, input.message);
        said = `Sent to ${sent.map((m) => m.to).join(', ')}.`;
      }
      if (input.wait !== true) return { content: `${said} Its reply will come to you as a message.` };
      const got = await team.waitForReplies([input.to], since, ctx.abortSignal);
      return { content: `${said}\n\n${replies(got)}` };
    } catch (error) {
      return refusal(error);
    }
  },
});
