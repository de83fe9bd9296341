import type { DreamState } from './dream-state';

export const MIN_HOURS_BETWEEN_DREAMS = 24;
export const MIN_SESSIONS_BETWEEN_DREAMS = 5;

export type DreamGate = 'disabled' | 'too-soon' | 'too-few-sessions';

export type GateResult = { pass: true } | { pass: false; gate: DreamGate; message: string };

/**
 * The cheap gates of autoDream, in order: enabled, 24 h since the last run, at least 5 sessions since.
 * The last gate, the consolidation lock, touches the file system and is taken by the caller only when
 * these pass. A project that never consolidated passes the time gate.
 */
export function checkDreamGates(o: {
  enabled: boolean;
  state: DreamState;
  now: Date;
  minHours?: number;
  minSessions?: number;
}): GateResult {
  if (!o.enabled) return { pass: false, gate: 'disabled', message: 'Auto memory is off.' };
  const minHours = o.minHours ?? MIN_HOURS_BETWEEN_DREAMS;
  if (o.state.lastConsolidatedAt !== null) {
    const hours = (o.now.getTime() - Date.parse(o.state.lastConsolidatedAt)) / 3_600_000;
    if (hours < minHours) {
      return {
        pass: false,
        gate: 'too-soon',
        message: `Memories were consolidated ${Math.max(0, Math.floor(hours))} h ago; the next run waits for ${minHours} h.`,
      };
    }
  }
  const minSessions = o.minSessions ?? MIN_SESSIONS_BETWEEN_DREAMS;
  if (o.state.sessionsSince < minSessions) {
    return {
      pass: false,
      gate: 'too-few-sessions',
      message: `${o.state.sessionsSince} of ${minSessions} sessions since the last consolidation.`,
    };
  }
  return { pass: true };
}
