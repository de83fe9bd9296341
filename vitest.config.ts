import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '@shared': resolve(import.meta.dirname, 'src-shared'),
  '@renderer': resolve(import.meta.dirname, 'src-renderer'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // expect.poll gives up after 1 s by default: on a loaded 2-core CI machine a turn against the
    // scripted API can take longer than that, and the poll failed although the state came. A poll
    // waits for something that happens; the test's own timeout is the bound that matters.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      { extends: true, test: { name: 'shared', include: ['src-shared/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: { name: 'main', include: ['src-main/**/*.test.ts'], environment: 'node', testTimeout: 20_000 },
      },
      {
        extends: true,
        test: {
          name: 'renderer',
          include: ['src-renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src-renderer/test-support/async-timeout.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
