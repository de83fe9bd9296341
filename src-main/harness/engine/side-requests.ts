import { DEMO_MODEL_ID } from '@shared/domain/models';
import type { UsageReport } from '../cost/tracker';
import type { BudgetGate } from '../cost/budget/session-budget';
import type { ModelRouter } from '../model/model-client';
import { sideRequest } from '../model/side-request';
import { smallModelFrom } from '../memory/recall/small-model';
import type { SideModel } from '../tools/tool';
import type { Conversation } from './conversation';

/**
 * An agent's model requests besides its turns' own (the memory selector, autoDream, WebFetch's
 * reader, WebSearch): the session pays for them and they spend from its budget like its turns.
 */
export class SideRequests {
  constructor(
    private readonly conversation: Conversation,
    private readonly models: ModelRouter,
    private readonly budget: BudgetGate | undefined,
    /** Whether a turn is running: outside one, the cost snapshot is saved at once. */
    private readonly running: () => boolean,
  ) {}

  /** A side request's usage, counted as the agent's own. */
  addUsage(report: UsageReport): void {
    this.conversation.addUsage(report);
    this.budget?.recordUsage(report);
    if (!this.running()) this.conversation.saveCost();
  }

  async allowed(): Promise<boolean> {
    // A budget that cannot tell (its spend unreadable) leaves the call to the turn's own check.
    return (await this.budget?.sideRequestsAllowed?.().catch(() => true)) ?? true;
  }

  /** Tools' own model requests (WebFetch's reader, WebSearch), for a turn on `model`. */
  sideModel(model: string): SideModel {
    return {
      // The demo model has no small model beside it (as recall): its side requests stay on it.
      smallModel: model === DEMO_MODEL_ID ? model : smallModelFrom(process.env),
      request: async (request, signal, onEvent) => {
        // At a reached spending limit a tool makes no model request (the turn's own request pauses there).
        if (!(await this.allowed()))
          throw new Error(
            'the session has reached its spending limit, so no model request is made for this tool',
          );
        return sideRequest(
          this.models.clientFor(request.model),
          request,
          signal,
          (report) => this.addUsage(report),
          'other',
          onEvent,
        );
      },
    };
  }
}
