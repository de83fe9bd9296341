import type { PermissionRequestView, PermissionResponse } from '@shared/domain/permissions';
import type { Decider, PermissionAnswer } from '../harness/permissions/handlers';
import { parseRule, RuleSyntaxError } from '../harness/permissions/rule';
import { AppError } from '../platform/errors';
import type { EventHub } from './event-hub';

interface Pending {
  view: PermissionRequestView;
  resolve: (answer: PermissionAnswer | null) => void;
  projectRoot: string;
}

/**
 * The person's side of permission requests: every pending request of every session, shown in the
 * UI (dialog and inbox) until someone answers, the turn stops, or another decider wins the race.
 */
export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly hub: EventHub,
    private readonly onWaitingChanged: (sessionId: string) => void,
  ) {}

  /** The "ask the person" racer for a session of the project at `projectRoot`. */
  decider(projectRoot: string): Decider {
    return (request, signal) =>
      new Promise((resolve) => {
        if (signal.aborted) return resolve(null);
        const view: PermissionRequestView = {
          id: request.id,
          sessionId: request.sessionId,
          toolName: request.toolName,
          toolUseId: request.toolUseId,
          summary: request.summary,
          reason: request.reason,
          suggestions: request.suggestions,
          input: request.input,
          createdAt: new Date().toISOString(),
          ...(request.preview ? { preview: request.preview } : {}),
          ...(request.agent ? { agent: request.agent } : {}),
        };
        this.pending.set(request.id, { view, resolve, projectRoot });
        this.hub.emit('permissions.requested', { request: view });
        this.onWaitingChanged(request.sessionId);
        signal.addEventListener(
          'abort',
          () => {
            // Decided elsewhere (a hook, the classifier) or the turn stopped: withdraw the question.
            if (this.pending.delete(request.id)) this.settled(view);
            resolve(null);
          },
          { once: true },
        );
      });
  }

  list(): PermissionRequestView[] {
    return [...this.pending.values()].map((p) => p.view);
  }

  /** Whether a sub-agent or worker has a request waiting. */
  waitingAgent(agentId: string): boolean {
    for (const p of this.pending.values()) if (p.view.agent?.id === agentId) return true;
    return false;
  }

  waiting(sessionId: string): boolean {
    for (const p of this.pending.values()) if (p.view.sessionId === sessionId) return true;
    return false;
  }

  respond(response: PermissionResponse): void {
    const p = this.pending.get(response.requestId);
    if (!p)
      throw new AppError(
        'NOT_FOUND',
        'That permission request is no longer pending (answered, or its turn stopped).',
      );
    let answer: PermissionAnswer;
    if (response.decision === 'deny') {
      answer = {
        behavior: 'deny',
        by: 'user',
        ...(response.feedback ? { feedback: response.feedback } : {}),
      };
    } else if (response.decision === 'allow_always') {
      // Only the rule text the person was shown is written, never a suggestion they did not see.
      if (response.rule === undefined)
        throw new AppError(
          'INVALID_INPUT',
          'Always allow needs the rule to write, as shown to the person; none was sent.',
        );
      // One rule per line: a compound command may need one for each of its parts.
      const rules = response.rule
        .split('\n')
        .map((r) => r.trim())
        .filter(Boolean);
      if (rules.length === 0)
        throw new AppError('CONFLICT', 'There is no rule to save for this request; allow it once instead.');
      for (const rule of rules) {
        try {
          parseRule(rule, 'local', 'allow', p.projectRoot);
        } catch (error) {
          throw new AppError(
            'INVALID_INPUT',
            error instanceof RuleSyntaxError ? error.message : String(error),
          );
        }
      }
      answer = {
        behavior: 'allow',
        by: 'user',
        alwaysRules: rules,
        note: `always allowed by the person (${rules.join(', ')})`,
      };
    } else answer = { behavior: 'allow', by: 'user', note: 'allowed once by the person' };
    this.pending.delete(response.requestId);
    p.resolve(answer);
    this.settled(p.view);
  }

  private settled(view: PermissionRequestView): void {
    this.hub.emit('permissions.resolved', { requestId: view.id, sessionId: view.sessionId });
    this.onWaitingChanged(view.sessionId);
  }
}
