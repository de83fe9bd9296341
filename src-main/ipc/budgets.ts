import type { HandlerMap } from './router';
import type { Services } from './services';

type BudgetChannels = Extract<keyof HandlerMap, `budgets.${string}`>;

/** Budgets: the limits (user settings only) and the sessions paused at one (Inbox items). */
export function budgetHandlers(s: Services): Pick<HandlerMap, BudgetChannels> {
  const projectPath = (projectId: string | undefined) =>
    projectId === undefined ? null : s.workspace.snapshot(projectId).project.path;
  return {
    'budgets.get': ({ projectId }) => s.budgets.status(s.settings.budgets(), projectPath(projectId)),
    'budgets.set': ({ projectId, ...limits }) => {
      // The project is looked up first: an unknown one answers NOT_FOUND with nothing written.
      const where = projectPath(projectId);
      // Written to the user's settings file only: a project's files can never set a limit.
      const budgets = s.settings.setBudgets(limits);
      return s.budgets.status(budgets, where);
    },
    'budgets.pending': () => s.budgets.list(),
    'budgets.respond': (input) => {
      s.budgets.respond(input);
      return { ok: true as const };
    },
  };
}
