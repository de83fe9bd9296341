import { z } from 'zod';

/**
 * Every failure that crosses the IPC boundary is data of this shape, never a thrown object:
 * the renderer is untrusted and a transport may be a socket, so nothing but JSON may travel.
 */
export const ErrorCode = z.enum([
  /** The payload did not match the channel's input schema. */
  'INVALID_INPUT',
  /** The frame was not a request at all (not JSON, wrong envelope). */
  'MALFORMED_MESSAGE',
  /** The channel is not part of the contract. */
  'UNKNOWN_CHANNEL',
  /** The frame is larger than the contract allows. */
  'PAYLOAD_TOO_LARGE',
  /** The sender is not allowed to talk to this process (wrong frame or origin). */
  'FORBIDDEN',
  'NOT_FOUND',
  /** The target exists but is in a state that does not allow this (e.g. a session already busy). */
  'CONFLICT',
  /** The feature is not available in this transport or on this machine. */
  'UNAVAILABLE',
  /** A file the user owns (settings, transcript) could not be read as expected. */
  'CORRUPT_DATA',
  'IO_ERROR',
  /** A bug: the handler threw something it should have mapped. */
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const IpcErrorData = z.object({
  code: ErrorCode,
  message: z.string(),
  retryable: z.boolean().optional(),
  /** Machine-readable specifics, e.g. the zod issues of an INVALID_INPUT. */
  details: z.array(z.string()).optional(),
});
export type IpcErrorData = z.infer<typeof IpcErrorData>;

/** The error a client raises when the other side answered with an error. */
export class IpcRequestError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: readonly string[];

  constructor(data: IpcErrorData) {
    super(data.message);
    this.name = 'IpcRequestError';
    this.code = data.code;
    this.retryable = data.retryable ?? false;
    this.details = data.details ?? [];
  }
}

export type Result<T, E = IpcErrorData> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

export function err<E = IpcErrorData>(error: E): Result<never, E> {
  return { ok: false, error };
}
