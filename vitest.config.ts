import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '@shared': resolve(import.meta.dirname, 'src-shared'),
  '@renderer': resolve(import.meta.dirname, 'src-renderer'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { extends: true, test: { name: 'shared', include: ['src-shared/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: { name: 'main', include: ['src-main/**/*.test.ts'], environment: 'node', testTimeout: 20_000 },
      },
      {
        extends: true,
        test: { name: 'renderer', include: ['src-renderer/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
    ],
  },
});
