import type { SessionSummary } from '@shared/domain/session';
import type { SearchHit } from '@shared/ipc/contract/search';
import { matchCommands, type PaletteCommand } from './commands';

/** One line of the palette: a session to switch to, a command to run, or a message found. */
export type PaletteEntry =
  | { kind: 'session'; key: string; session: SessionSummary }
  | { kind: 'command'; key: string; command: PaletteCommand }
  | { kind: 'hit'; key: string; hit: SearchHit };

/** What the typed text asks for: `>` commands only, `#` messages only, otherwise everything. */
export function parseInput(raw: string): { mode: 'all' | 'commands' | 'messages'; text: string } {
  const t = raw.trimStart();
  if (t.startsWith('>')) return { mode: 'commands', text: t.slice(1).trim() };
  if (t.startsWith('#')) return { mode: 'messages', text: t.slice(1).trim() };
  return { mode: 'all', text: t.trim() };
}

/** The shortest text worth a full-text search. */
export const MIN_SEARCH = 2;
const MAX_SESSIONS = 8;

export function paletteEntries(
  raw: string,
  sessions: readonly SessionSummary[],
  commands: readonly PaletteCommand[],
  hits: readonly SearchHit[],
): PaletteEntry[] {
  const { mode, text } = parseInput(raw);
  const out: PaletteEntry[] = [];
  if (mode === 'all') {
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    const matching = sessions
      .filter((s) => words.every((w) => s.title.toLowerCase().includes(w)))
      .slice(0, words.length === 0 ? MAX_SESSIONS : MAX_SESSIONS * 2);
    for (const s of matching) out.push({ kind: 'session', key: `s:${s.id}`, session: s });
  }
  if (mode !== 'messages')
    for (const c of matchCommands(commands, text))
      out.push({ kind: 'command', key: `c:${c.id}`, command: c });
  if (mode !== 'commands')
    for (const h of hits) {
      // A sub-agent's pieces all point at the call they show under: told apart by their own message.
      const own = h.agent ? `:${h.agent.agentId}:${h.agent.itemId}:${h.agent.toolUseId ?? ''}` : '';
      out.push({
        kind: 'hit',
        key: `h:${h.sessionId}:${h.itemId}:${h.toolUseId ?? ''}:${h.kind}${own}`,
        hit: h,
      });
    }
  return out;
}
