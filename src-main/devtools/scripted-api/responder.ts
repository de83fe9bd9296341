import { MessageReply, type ErrorReply, type Matcher, type Scenario } from './scenario';
import { lastUserText, type RecordedRequest } from './request';

export type ScriptedReply = MessageReply | { error: ErrorReply };

/** Decides the reply to one request; `undefined` means "nothing scripted for this". */
export type Responder = (request: RecordedRequest) => ScriptedReply | undefined;

function matches(m: Matcher | undefined, request: RecordedRequest): boolean {
  if (!m) return true;
  const text = lastUserText(request.body);
  if (m.lastUserText !== undefined && !text.includes(m.lastUserText)) return false;
  if (m.lastUserPattern !== undefined && !new RegExp(m.lastUserPattern).test(text)) return false;
  if (m.model !== undefined && request.body.model !== m.model) return false;
  if (m.requestIndex !== undefined && request.index !== m.requestIndex) return false;
  if (m.systemText !== undefined && !systemText(request.body.system).includes(m.systemText)) return false;
  return true;
}

/** The system prompt's text, whether sent as a string or as text blocks. */
function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (Array.isArray(system))
    return system
      .map((b: unknown) => {
        const text = typeof b === 'object' && b !== null ? (b as { text?: unknown }).text : undefined;
        return typeof text === 'string' ? text : '';
      })
      .join('\n');
  return '';
}

/** Turns a scenario into a responder that consumes steps as they are used. */
export function scenarioResponder(scenario: Scenario): Responder {
  const used = scenario.steps.map(() => 0);
  return (request) => {
    for (let i = 0; i < scenario.steps.length; i++) {
      const step = scenario.steps[i];
      if (!step) continue;
      const left = step.times === true ? Infinity : step.times - (used[i] ?? 0);
      if (left <= 0 || !matches(step.when, request)) continue;
      used[i] = (used[i] ?? 0) + 1;
      return step.reply;
    }
    return undefined;
  };
}

/** A reply of plain text, with the scenario defaults filled in. */
export function textReply(text: string, options: Partial<Omit<MessageReply, 'content'>> = {}): MessageReply {
  return MessageReply.parse({ content: [{ type: 'text', text }], ...options });
}
