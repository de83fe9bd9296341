import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Playwright cannot download its own browsers on an offline machine: use Debian's Chromium when present.
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export default defineConfig({
  testDir: 'e2e/specs',
  globalSetup: './e2e/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // No retries: a flaky test is a race to find, not to hide.
  retries: 0,
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    launchOptions: {
      ...(systemChromium ? { executablePath: systemChromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'serve', testIgnore: /electron\.spec\.ts$/, use: { browserName: 'chromium' } },
    { name: 'electron', testMatch: /electron\.spec\.ts$/ },
  ],
});
