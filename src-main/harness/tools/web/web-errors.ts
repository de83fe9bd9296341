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
  | 'binary-content'
  /** A name that resolves to this machine or a network behind it (fetch-time DNS check). */
  | 'private-address'
  /** An IPv4 address spelt as IPv6 (`[::ffff:127.0.0.1]`), which rules about the address would miss. */
  | 'ipv4-as-ipv6';

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
