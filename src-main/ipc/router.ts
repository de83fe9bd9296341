import type { z } from 'zod';
import type { IpcErrorData } from '@shared/domain/errors';
import {
  isRequestChannel,
  MAX_REQUEST_BYTES,
  requests,
  type ParsedInput,
  type RequestChannel,
  type RequestOutput,
} from '@shared/ipc/contract';
import type { WireResult } from '@shared/ipc/wire';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';

export interface RequestContext {
  transport: 'electron' | 'websocket';
}

export type Handler<C extends RequestChannel> = (
  input: ParsedInput<C>,
  ctx: RequestContext,
) => RequestOutput<C> | Promise<RequestOutput<C>>;

export type HandlerMap = { [C in RequestChannel]: Handler<C> };

function fail(error: IpcErrorData): WireResult {
  return { ok: false, error };
}

export function payloadTooLarge(bytes: number): IpcErrorData {
  return {
    code: 'PAYLOAD_TOO_LARGE',
    message: `The request is ${bytes} bytes; at most ${MAX_REQUEST_BYTES} are accepted.`,
  };
}

function issues(error: z.ZodError): string[] {
  return error.issues
    .slice(0, 20)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(input)'}: ${i.message}`);
}

/**
 * Validates and dispatches one request. It never throws: every failure (unknown channel, bad input,
 * a handler error) comes back as a typed error, so no message from the renderer can crash the process.
 */
export class IpcRouter {
  constructor(
    private readonly handlers: HandlerMap,
    private readonly logger: Logger,
  ) {}

  async dispatch(channel: unknown, input: unknown, ctx: RequestContext): Promise<WireResult> {
    if (!isRequestChannel(channel)) {
      const name = typeof channel === 'string' ? `"${channel.slice(0, 100)}"` : `a ${typeof channel}`;
      return fail({ code: 'UNKNOWN_CHANNEL', message: `There is no IPC channel ${name}.` });
    }
    return this.run(channel, input, ctx);
  }

  private async run(channel: RequestChannel, input: unknown, ctx: RequestContext): Promise<WireResult> {
    const spec = requests[channel];
    const parsed = spec.input.safeParse(input ?? {});
    if (!parsed.success) {
      return fail({
        code: 'INVALID_INPUT',
        message: `Invalid input for ${channel}.`,
        details: issues(parsed.error),
      });
    }
    try {
      // The map's type ties each channel to its handler; indexing by a union loses that link, hence the cast.
      const handler = this.handlers[channel] as (input: unknown, ctx: RequestContext) => unknown;
      const output = await handler(parsed.data, ctx);
      // The contract binds the main process too: a handler returning the wrong shape is our bug, caught here.
      const checked = spec.output.safeParse(output);
      if (!checked.success) {
        this.logger.error(`Handler for ${channel} returned an invalid output`, issues(checked.error));
        return fail({ code: 'INTERNAL', message: `Internal error in ${channel}: invalid response.` });
      }
      return { ok: true, value: checked.data };
    } catch (error) {
      if (error instanceof AppError) return fail(error.toData());
      this.logger.error(`Handler for ${channel} failed`, error);
      return fail({ code: 'INTERNAL', message: `Internal error in ${channel}: ${(error as Error).message}` });
    }
  }
}
