import { z } from 'zod';
import { SessionId } from '../../domain/session';
import { channel, SessionRef } from './common';

const TerminalId = z.string().min(1).max(100);
const TerminalCols = z.number().int().min(2).max(1000);
const TerminalRows = z.number().int().min(1).max(500);

export const TerminalInfo = z.object({
  terminalId: z.string(),
  /** The screen and scrollback so far, as escape sequences to write into a fresh terminal. */
  snapshot: z.string(),
  /** Characters of output the snapshot covers. */
  offset: z.number(),
  /** Set once the shell has exited. */
  exitCode: z.number().nullable(),
});
export type TerminalInfo = z.infer<typeof TerminalInfo>;

export const requests = {
  /**
   * Attaches to the session's terminal (the user's own shell in the project folder, outside the
   * sandbox), starting it if needed. The snapshot redraws the screen and scrollback; output events
   * whose `offset` is not beyond `offset` are already in it.
   */
  'terminal.open': channel(
    z.strictObject({ sessionId: SessionId, cols: TerminalCols, rows: TerminalRows }),
    TerminalInfo,
  ),
  /** The session's terminal, if one is running or has ended but not been closed. */
  'terminal.find': channel(SessionRef, z.object({ terminalId: z.string().nullable() })),
  'terminal.input': channel(
    z.strictObject({ terminalId: TerminalId, data: z.string().max(1_000_000) }),
    z.object({ ok: z.literal(true) }),
  ),
  'terminal.resize': channel(
    z.strictObject({ terminalId: TerminalId, cols: TerminalCols, rows: TerminalRows }),
    z.object({ ok: z.literal(true) }),
  ),
  /** Flow control: this many characters of output have been drawn. */
  'terminal.ack': channel(
    z.strictObject({ terminalId: TerminalId, chars: z.number().int().nonnegative().max(1e9) }),
    z.object({ ok: z.literal(true) }),
  ),
  /** The view went away (tab switched); output keeps flowing into the kept screen. */
  'terminal.detach': channel(z.strictObject({ terminalId: TerminalId }), z.object({ ok: z.literal(true) })),
  /** Ends the shell and forgets the terminal. */
  'terminal.close': channel(z.strictObject({ terminalId: TerminalId }), z.object({ closed: z.boolean() })),
} as const;

export const events = {
  /** Terminal output; `offset` is where this chunk ends in the terminal's whole output. */
  'terminal.data': z.object({ terminalId: z.string(), data: z.string(), offset: z.number() }),
  'terminal.exit': z.object({ terminalId: z.string(), exitCode: z.number() }),
} as const;
