import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const alias = {
  '@shared': resolve(import.meta.dirname, 'src-shared'),
  '@renderer': resolve(import.meta.dirname, 'src-renderer'),
};

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        // index: the Electron main process; cli: `carapace` under plain Node (serve, -p).
        input: {
          index: resolve(import.meta.dirname, 'src-main/index.ts'),
          cli: resolve(import.meta.dirname, 'src-main/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require anything but 'electron': bundle what it uses, as CommonJS.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src-main/app/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    resolve: { alias },
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // Serve mode sends this over the network: keep it small.
      minify: true,
      rolldownOptions: { input: resolve(import.meta.dirname, 'src-renderer/index.html') },
    },
  },
});
