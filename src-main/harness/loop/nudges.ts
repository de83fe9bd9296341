/** The words the harness puts in the model's mouth, in one place. */

export const RESUME_AFTER_OUTPUT_LIMIT =
  'Your reply hit the output token limit and was cut off. Continue exactly where it stopped: no apology, no summary of what you already wrote. If the cut came mid-sentence or mid-code, finish that first.';

export function tokenBudgetNudge(spent: number, budget: number): string {
  const pct = Math.round((spent / budget) * 100);
  return `You have used ${spent.toLocaleString('en-US')} of the ${budget.toLocaleString('en-US')} output tokens budgeted for this task (${pct}%). Keep working toward the goal — do not stop to summarize or to ask; pick up where you are.`;
}

export function stopHookNudge(reason: string): string {
  return `A Stop hook blocked the end of your turn: ${reason}\nAddress this, then finish.`;
}

export const COMPACT_INSTRUCTIONS = `Summarize the conversation so far so that the work can continue without it. Keep:
- the user's requests and intent, in their words where it matters;
- decisions made, and why;
- files read or changed, with the important details (paths, functions, what changed);
- errors met and how they were fixed;
- what is done, what is pending, and the exact next step.
Write it as a plain-text briefing, no preamble. Answer with text only: do not call any tool.`;

export function compactedContext(summary: string): string {
  return `This session continues an earlier conversation that ran out of context. A summary of it:\n\n${summary}\n\nContinue from where it left off without asking the user to repeat anything.`;
}
