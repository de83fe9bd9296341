import { IpcRequestError } from '@shared/domain/errors';

/** An IPC failure as a line for a Settings page: the message and its details (which field, why). */
export function problemText(error: unknown): string {
  if (error instanceof IpcRequestError) {
    const details = error.details.length > 0 ? ` (${error.details.join('; ')})` : '';
    return `${error.message}${details}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Loads a Settings page's list into its state and returns the effect's cleanup: an answer that
 * arrives after the page moved on (closed, or another project opened) is dropped, not drawn over
 * the newer one.
 */
export function loadLatest<T>(
  load: Promise<T>,
  onValue: (value: T) => void,
  onError: (problem: string) => void,
): () => void {
  let live = true;
  load.then(
    (value) => live && onValue(value),
    (error: unknown) => live && onError(problemText(error)),
  );
  return () => {
    live = false;
  };
}
