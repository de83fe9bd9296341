import type { HandlerMap } from './router';
import type { Services } from './services';

type CostChannels = Extract<keyof HandlerMap, `cost.${string}`>;

/** The cost dashboard: aggregates of the usage ledger (the window never receives records). */
export function costHandlers(s: Services): Pick<HandlerMap, CostChannels> {
  return {
    'cost.report': (q) => s.cost.report(q),
    'cost.session': ({ sessionId }) => s.cost.session(sessionId),
    'cost.export': ({ query, table, format }) => s.cost.exportTable(query, table, format),
  };
}
