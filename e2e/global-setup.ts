import { electronUnavailable } from './fixtures/electron-availability';

/** Runs once per `playwright test`: says plainly when the desktop variant will be skipped, and why. */
export default function globalSetup(): void {
  const reason = electronUnavailable();
  if (reason) console.log(`[e2e] Electron variant skipped: ${reason}.`);
}
