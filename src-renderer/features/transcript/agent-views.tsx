import type { AgentState } from '@shared/domain/agents';
import { exactSessionCost, formatSessionCost } from '@shared/domain/cost';
import type { CostKind } from '@shared/domain/session';

/** An agent's state in words, for badges and accessible names. */
export const AGENT_STATE_LABEL: Record<AgentState | 'pending', string> = {
  pending: 'starting',
  idle: 'idle',
  working: 'working',
  waiting: 'waiting for you',
  done: 'done',
  failed: 'failed',
};

/** The state as a small coloured word. */
export function AgentStateBadge({ state }: { state: AgentState | 'pending' }) {
  return (
    <span className={`agent-state agent-state-${state}`} data-state={state}>
      {AGENT_STATE_LABEL[state]}
    </span>
  );
}

/** A Verification agent's verdict: PASS or FAIL, its reasons on hover. */
export function VerdictBadge({ verdict, reasons }: { verdict: 'PASS' | 'FAIL'; reasons?: string | null }) {
  return (
    <span
      className={`verdict verdict-${verdict.toLowerCase()}`}
      data-verdict={verdict}
      title={reasons ?? undefined}
      aria-label={`Verdict: ${verdict}`}
    >
      {verdict}
    </span>
  );
}

/**
 * Own cost and the cost with everything it started, as one short text: "$0.12 own · $0.40 total"
 * (money.ts's rule; `exact` to the micro-dollar, for the hover: "$0.0012 own · $0.004 total").
 * Demo and unpriced sessions say so rather than showing a misleading "$0".
 */
export function costText(
  own: number | undefined,
  total: number | undefined,
  kind: CostKind,
  exact = false,
): string {
  if (own === undefined && total === undefined) return '';
  const o = own ?? 0;
  const t = Math.max(total ?? o, o);
  const money = exact ? exactSessionCost : formatSessionCost;
  return `${money(o, kind)} own · ${money(t, kind)} total`;
}

export function tokensText(tokens: number | undefined): string {
  return tokens === undefined ? '' : `${tokens.toLocaleString('en-US')} tokens`;
}
