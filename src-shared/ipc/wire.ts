import { z } from 'zod';
import { IpcErrorData } from '../domain/errors';

/**
 * Frames of the WebSocket transport, and the result shape both transports use.
 * Only the envelope is checked here; the channel's own schema checks the input.
 */
export const RequestFrame = z.object({
  type: z.literal('request'),
  id: z.number().int().nonnegative(),
  channel: z.string(),
  input: z.unknown(),
});
export type RequestFrame = z.infer<typeof RequestFrame>;

export const WireResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: IpcErrorData }),
]);
export type WireResult = z.infer<typeof WireResult>;

export const ServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('response'), id: z.number(), result: WireResult }),
  z.object({ type: z.literal('event'), event: z.string(), payload: z.unknown() }),
  /** A frame that could not be tied to a request id (not JSON, no id): answered, never dropped. */
  z.object({ type: z.literal('protocol-error'), error: IpcErrorData }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

/** The narrow bridge the Electron preload exposes on `window.carapace`. */
export interface CarapaceBridge {
  invoke(channel: string, input: unknown): Promise<WireResult>;
  on(listener: (event: string, payload: unknown) => void): () => void;
}
