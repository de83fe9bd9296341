import type { AccumulatedMessage } from '../model/accumulate';
import type { ModelRequest } from '../model/model-client';
import type { HandlerResult } from './output';
import { capOutput } from './output';
import type { AgentHook, PromptHook } from './schema';

/**
 * What prompt and agent hooks ask a model through: the session's model router, as side requests the
 * session pays for. Attached by the session's main agent (create-runtime.ts); until then (and where
 * there is none) these hooks cannot run and say so.
 */
export interface HookModel {
  /** The small, fast model a prompt hook uses unless it names one. */
  smallModel: string;
  /** One side request. */
  ask(request: ModelRequest, signal: AbortSignal): Promise<AccumulatedMessage>;
  /** Runs a sub-agent with read-only tools on `prompt`; its final text. */
  verify(prompt: string, model: string | undefined, signal: AbortSignal): Promise<string>;
}

/** How a prompt or agent hook must answer, as Claude Code asks. */
export const VERDICT_INSTRUCTIONS =
  'You are evaluating a hook in a coding agent harness. Decide whether the condition described holds for the event given as JSON. ' +
  'Answer with a single JSON object and nothing else: {"ok": true} when it holds, or {"ok": false, "reason": "<why, addressed to the agent>"} when it does not.';

/** The hook's prompt with `$ARGUMENTS` replaced by the event JSON (appended when it has none). */
export function fillPrompt(prompt: string, input: object): string {
  const json = JSON.stringify(input);
  return prompt.includes('$ARGUMENTS')
    ? prompt.replaceAll('$ARGUMENTS', json)
    : `${prompt}\n\nEvent JSON:\n${json}`;
}

/** The model's `{ok, reason}` out of its text (the first JSON object in it), or why it is not one. */
export function parseVerdict(text: string): { ok: boolean; reason: string } | { problem: string } {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return { problem: `the model's answer is not JSON: ${text.slice(0, 200)}` };
  let data: unknown;
  try {
    data = JSON.parse(text.slice(start, end + 1));
  } catch {
    return { problem: `the model's answer is not valid JSON: ${text.slice(0, 200)}` };
  }
  if (typeof data !== 'object' || data === null) return { problem: "the model's answer is not an object" };
  const v = data as { ok?: unknown; reason?: unknown };
  if (typeof v.ok !== 'boolean') return { problem: 'the model\'s answer has no boolean "ok"' };
  return { ok: v.ok, reason: typeof v.reason === 'string' ? v.reason : '' };
}

const textOf = (m: AccumulatedMessage) =>
  m.content
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('')
    .trim();

/**
 * Runs a prompt hook (one side request to the small model) or an agent hook (a read-only sub-agent)
 * within its timeout. `ok: false` blocks as exit 2 does, with the reason; `ok: true` lets the event
 * go on; a failure, a bad answer or the timeout decides nothing.
 */
export async function runModelHook(
  handler: PromptHook | AgentHook,
  input: object,
  o: { model: HookModel | null; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<HandlerResult> {
  const started = performance.now();
  const base = { exitCode: null, stdout: '', stderr: '', json: null };
  const done = (r: Pick<HandlerResult, 'status'> & Partial<HandlerResult>): HandlerResult => ({
    ...base,
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  if (!o.model)
    return done({
      status: 'skipped',
      problem: `${handler.type} hooks need the session's model, which is not available here`,
    });
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  const prompt = fillPrompt(handler.prompt, input);
  let text: string;
  try {
    if (handler.type === 'prompt') {
      const m = await o.model.ask(
        {
          model: handler.model ?? o.model.smallModel,
          system: VERDICT_INSTRUCTIONS,
          messages: [{ role: 'user', content: prompt }],
          maxTokens: 1024,
        },
        signal,
      );
      text = textOf(m);
    } else text = await o.model.verify(`${VERDICT_INSTRUCTIONS}\n\n${prompt}`, handler.model, signal);
  } catch (error) {
    if (timeout.aborted)
      return done({ status: 'timeout', problem: `no answer within ${Math.round(o.timeoutMs / 1000)} s` });
    return done({ status: 'error', problem: `the model request failed: ${(error as Error).message}` });
  }
  // A stream cut by the timeout may end quietly with what had arrived: that is no answer either.
  if (timeout.aborted)
    return done({ status: 'timeout', problem: `no answer within ${Math.round(o.timeoutMs / 1000)} s` });
  if (o.signal?.aborted) return done({ status: 'error', problem: 'stopped before it answered' });
  const stdout = capOutput(text);
  const verdict = parseVerdict(text);
  if ('problem' in verdict) return done({ status: 'error', stdout, problem: verdict.problem });
  return verdict.ok
    ? done({ status: 'ok', stdout })
    : done({
        status: 'block',
        stdout,
        stderr: capOutput(verdict.reason || `the ${handler.type} hook's condition does not hold`),
      });
}
