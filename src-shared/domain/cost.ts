import { exactUsd, formatUsd } from './money';
import type { CostKind } from './session';

/** The cost as a person should read it: demo sessions say so, unknown models are flagged, never "$0". */
export function formatSessionCost(usd: number, kind: CostKind): string {
  return sessionCost(usd, kind, formatUsd);
}

/** The same cost to the micro-dollar, for a hover title. */
export function exactSessionCost(usd: number, kind: CostKind): string {
  return sessionCost(usd, kind, exactUsd);
}

function sessionCost(usd: number, kind: CostKind, money: (usd: number) => string): string {
  if (kind === 'demo') return '$0 (demo)';
  if (kind === 'unpriced') return usd > 0 ? `${money(usd)} + unpriced` : 'unpriced';
  return money(usd);
}
