import type { WireResult } from '@shared/ipc/wire';

/**
 * Waits until `check()` holds, looking every `pollMs`; fails after `ms`. For state a test reaches
 * through real async work (a turn ending, a file written), never a timing assertion.
 */
export async function until(check: () => boolean, ms = 20_000, pollMs = 5): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** A router result's value; a failed result is thrown as `code: message`. */
export function wireValue(result: WireResult): unknown {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}
