import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/** Copies the tree-sitter runtime and the bash grammar next to the main bundle (out/main/wasm). */
function copyBashWasm(): Plugin {
  return {
    name: 'carapace:copy-bash-wasm',
    apply: 'build',
    writeBundle(options) {
      const dir = resolve(options.dir ?? 'out/main', 'wasm');
      mkdirSync(dir, { recursive: true });
      for (const file of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
        copyFileSync(require.resolve(file), resolve(dir, file.split('/')[1] ?? file));
      }
    },
  };
}

const alias = {
  '@shared': resolve(import.meta.dirname, 'src-shared'),
  '@renderer': resolve(import.meta.dirname, 'src-renderer'),
};

export default defineConfig({
  main: {
    resolve: { alias },
    plugins: [copyBashWasm()],
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
