/** Why a web tool refused or failed, as a code tests and callers can tell apart, and words for the model. */
export type WebErrorCode =
  | 'invalid-url'
  | 'unsupported-scheme'
  | 'credentials-in-url'
  | 'too-many-redirects'
  | 'bad-redirect'
  | 'timeout'
  | 'network'
  | 'http-status'
  | 'binary-content';

export class WebFetchError extends Error {
  constructor(
    readonly code: WebErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WebFetchError';
  }
}
