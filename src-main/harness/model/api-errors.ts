import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { MissingCredentialsError } from './router';

/** The stream closed before `message_stop`: the connection dropped mid-reply. */
export class StreamIncompleteError extends Error {
  constructor() {
    super('the stream ended before the message was complete');
    this.name = 'StreamIncompleteError';
  }
}

export interface DescribedApiError {
  /** The API's `error.type` where there is one, else `connection_error` / `aborted` / `unknown_error`. */
  code: string;
  status: number | null;
  /** One readable sentence for the transcript, with what to do about it. */
  message: string;
}

const ADVICE: Record<string, string> = {
  authentication_error: 'Check ANTHROPIC_API_KEY or the key in Settings.',
  permission_error: 'This key is not allowed to use that model or feature.',
  billing_error: 'Check the billing settings of your Anthropic account.',
  not_found_error: 'Check the model name and the API base URL.',
  rate_limit_error: 'Wait a moment and send again, or lower the number of sessions running at once.',
  overloaded_error: 'The API is overloaded; try again shortly or pick another model.',
  api_error: 'The API had an internal error; try again.',
  timeout_error: 'The API timed out; try again.',
  request_too_large: 'The request is larger than the API accepts.',
};

const TITLES: Record<string, string> = {
  authentication_error: 'Authentication failed',
  permission_error: 'Permission denied',
  billing_error: 'Billing problem',
  not_found_error: 'Not found',
  rate_limit_error: 'Rate limited',
  overloaded_error: 'API overloaded',
  api_error: 'API error',
  timeout_error: 'API timeout',
  invalid_request_error: 'Invalid request',
  request_too_large: 'Request too large',
};

function typeFromStatus(status: number | undefined): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status !== undefined && status >= 500 ? 'api_error' : 'unknown_error';
  }
}

/** `instanceof APIError` narrows to APIError<any, …>; this guard narrows to the declared defaults. */
function isApiError(error: unknown): error is APIError {
  return error instanceof APIError;
}

/** Turns whatever a model call threw into a code and a sentence a person can act on. */
export function describeApiError(error: unknown): DescribedApiError {
  if (error instanceof MissingCredentialsError) {
    return { code: 'missing_credentials', status: null, message: error.message };
  }
  if (error instanceof StreamIncompleteError) {
    return {
      code: 'connection_error',
      status: null,
      message: 'The connection dropped mid-stream; the reply is incomplete. Send again to retry.',
    };
  }
  if (error instanceof APIUserAbortError) {
    return { code: 'aborted', status: null, message: 'Stopped.' };
  }
  if (error instanceof APIConnectionError) {
    return {
      code: 'connection_error',
      status: null,
      message: `Connection to the API failed: ${error.message}. Check the network and the API base URL.`,
    };
  }
  if (isApiError(error)) {
    const apiError = error;
    const code = apiError.type ?? typeFromStatus(apiError.status);
    const title = TITLES[code] ?? 'API error';
    const detail = (apiError.apiMessage ?? apiError.message).replace(/\.$/, '');
    const status = apiError.status ?? null;
    const statusText = status === null ? '' : ` (HTTP ${status})`;
    const advice = ADVICE[code];
    return { code, status, message: `${title}${statusText}: ${detail}.${advice ? ` ${advice}` : ''}` };
  }
  if (error instanceof Error && /terminated|socket|ECONNRESET|premature/i.test(error.message)) {
    return {
      code: 'connection_error',
      status: null,
      message: `The connection dropped mid-stream: ${error.message}.`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'unknown_error', status: null, message: `The model call failed: ${message}` };
}
