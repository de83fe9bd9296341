import type { DecidedBy, PermissionPreview } from '@shared/domain/permissions';
import { ResolveOnce } from './resolve-once';

/** A tool call that needs a decision nobody has made yet. */
export interface PermissionRequest {
  id: string;
  sessionId: string;
  toolName: string;
  toolUseId: string;
  input: Record<string, unknown>;
  /** What the call acts on, in one line: the command, or the path. */
  summary: string;
  /** Why it needs approval (the analysis' words). */
  reason: string;
  /** Rules "Always allow" would write. */
  suggestions: string[];
  /** For Edit and Write: the change the call would make. */
  preview?: PermissionPreview;
  /** The sub-agent or worker asking, when it is not the session's main agent. */
  agent?: { id: string; name: string; agentType: string };
}

export type PermissionAnswer =
  | {
      behavior: 'allow';
      by: DecidedBy;
      alwaysRules?: string[];
      note?: string;
      /**
       * A PermissionRequest hook's `updatedInput`: the call runs with this instead, once the gate has
       * judged it again as a new call (schema, rules, containment; see engine-gate.ts). `held` says
       * why no hook may answer the new input's ask (null: it may), as the hooks layer judges that.
       */
      updatedInput?: { input: Record<string, unknown>; held: (input: object) => string | null };
      /** Session rules a PermissionRequest hook's `updatedPermissions` adds (`Bash(npm test:*)`), by behavior. */
      sessionRules?: { behavior: 'allow' | 'deny' | 'ask'; rule: string }[];
    }
  | { behavior: 'deny'; by: DecidedBy; feedback?: string; note?: string };

/** A party that may decide: answers, or null for "no opinion". It should stop when `signal` aborts. */
export type Decider = (request: PermissionRequest, signal: AbortSignal) => Promise<PermissionAnswer | null>;

export interface PermissionHandler {
  resolve(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer>;
}

const interrupted: PermissionAnswer = {
  behavior: 'deny',
  by: 'user',
  note: 'The turn was stopped while the request was pending.',
};

/**
 * The main session's handler: the prompt is queued in the UI at once, while hooks and the classifier
 * run in the background; the first to answer decides, exactly once, and the others are cancelled.
 */
export function interactiveHandler(parts: {
  askUser: Decider;
  hooks?: Decider;
  classifier?: Decider;
}): PermissionHandler {
  return {
    resolve(request, signal) {
      const once = new ResolveOnce<PermissionAnswer>();
      const losers = new AbortController();
      const onAbort = () => settle(interrupted);
      const settle = (answer: PermissionAnswer | null) => {
        // claim() runs synchronously as the answer arrives: no await between checking and winning.
        if (answer && once.claim()) {
          once.deliver(answer);
          losers.abort();
          // The turn's signal outlives this request: a listener left on it per request would pile up.
          signal.removeEventListener('abort', onAbort);
        }
      };
      const racers = [parts.askUser, parts.hooks, parts.classifier].filter(
        (d): d is Decider => d !== undefined,
      );
      for (const decide of racers) decide(request, losers.signal).then(settle, () => undefined);
      if (signal.aborted) settle(interrupted);
      else signal.addEventListener('abort', onAbort, { once: true });
      return once.promise;
    },
  };
}

/** Runs deciders one after another; the first with an opinion decides. */
async function inTurn(
  deciders: readonly (Decider | undefined)[],
  request: PermissionRequest,
  signal: AbortSignal,
): Promise<PermissionAnswer> {
  for (const decide of deciders) {
    if (!decide) continue;
    if (signal.aborted) return interrupted;
    const answer = await decide(request, signal);
    if (answer) return answer;
  }
  return { behavior: 'deny', by: 'default', note: 'Nobody answered the permission request.' };
}

/** A coordinator's worker: hooks, then the classifier, then a person. */
export function coordinatorWorkerHandler(parts: {
  hooks?: Decider;
  classifier?: Decider;
  askUser: Decider;
}): PermissionHandler {
  return {
    resolve: (request, signal) => inTurn([parts.hooks, parts.classifier, parts.askUser], request, signal),
  };
}

/** Where a swarm worker sends requests for its leader; replies come back by request id. */
export interface LeaderMailbox {
  /** Registers for the reply to one request; returns an unsubscribe. */
  onReply(requestId: string, callback: (answer: PermissionAnswer | null) => void): () => void;
  send(request: PermissionRequest): void;
}

/**
 * A swarm worker: the classifier first, then the leader (the reply callback is registered before the
 * request is sent, so an immediate reply cannot be missed), then a person.
 */
export function swarmWorkerHandler(parts: {
  classifier?: Decider;
  mailbox: LeaderMailbox;
  askUser: Decider;
}): PermissionHandler {
  const askLeader: Decider = (request, signal) =>
    new Promise((resolve) => {
      const off = parts.mailbox.onReply(request.id, (answer) => {
        off();
        resolve(answer ? { ...answer, by: 'leader' } : null);
      });
      signal.addEventListener(
        'abort',
        () => {
          off();
          resolve(null);
        },
        { once: true },
      );
      parts.mailbox.send(request);
    });
  return {
    resolve: (request, signal) => inTurn([parts.classifier, askLeader, parts.askUser], request, signal),
  };
}
