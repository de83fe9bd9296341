import type { CostKind } from './session';

/** Above $0.50 two decimals, otherwise four (as Claude Code shows cost). */
export function formatCost(usd: number): string {
  return usd > 0.5 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** The cost as a person should read it: demo sessions say so, unknown models are flagged, never "$0". */
export function formatSessionCost(usd: number, kind: CostKind): string {
  if (kind === 'demo') return '$0 (demo)';
  if (kind === 'unpriced') return usd > 0 ? `${formatCost(usd)} + unpriced` : 'unpriced';
  return formatCost(usd);
}
