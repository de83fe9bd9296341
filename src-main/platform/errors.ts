import type { ErrorCode, IpcErrorData } from '@shared/domain/errors';

/**
 * The main process's error type. Services throw it with a code from the contract's ErrorCode,
 * and the router turns it into IpcErrorData; anything else that escapes a handler is a bug (INTERNAL).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: string[] | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; retryable?: boolean; details?: string[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  toData(): IpcErrorData {
    const data: IpcErrorData = { code: this.code, message: this.message };
    if (this.retryable) data.retryable = true;
    if (this.details) data.details = this.details;
    return data;
  }
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} was not found`);
}

/** A message for humans from anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** `code` of a Node system error (ENOENT, EACCES, …), if it is one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}
