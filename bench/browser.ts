import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

/** Chromium for the window benchmarks: the system's where there is one (browsers cannot be downloaded here). */
export function launchBenchBrowser(): Promise<Browser> {
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  return chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
  });
}
