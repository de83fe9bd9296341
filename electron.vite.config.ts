import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { copyMainResources, rendererResources } from './resources.vite';

/** Vendor chunks of the renderer, by the packages in them. */
const RENDERER_CHUNKS = [
  {
    name: 'react',
    test: /node_modules[\\/](react|react-dom|scheduler|zustand|use-sync-external-store)[\\/]/,
  },
  { name: 'highlight', test: /node_modules[\\/](lowlight|highlight\.js|rehype-highlight)[\\/]/ },
  {
    name: 'markdown',
    test: /node_modules[\\/](react-markdown|remark-[^\\/]+|rehype-[^\\/]+|micromark[^\\/]*|mdast-[^\\/]+|hast-[^\\/]+|unist-[^\\/]+|unified|vfile[^\\/]*|property-information|decode-named-character-reference|character-entities[^\\/]*|space-separated-tokens|comma-separated-tokens|html-url-attributes|trim-lines|devlop|bail|trough|is-plain-obj|zwitch|longest-streak|markdown-table|ccount|escape-string-regexp|estree-util-[^\\/]+|style-to-[^\\/]+|inline-style-parser)[\\/]/,
  },
  // The WebGL renderer is loaded only where a GPU is: a chunk of its own.
  { name: 'xterm-webgl', test: /node_modules[\\/]@xterm[\\/]addon-webgl[\\/]/ },
  { name: 'xterm', test: /node_modules[\\/]@xterm[\\/]/ },
  // zod-config.ts sets jitless mode: it rides in zod's chunk, so the setting runs as zod loads and
  // before any other chunk can parse (a parse first would probe for eval, which the CSP refuses).
  { name: 'zod', test: /node_modules[\\/]zod[\\/]|src-renderer[\\/]zod-config\.ts$/ },
  { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
  // The memory browser's editor, its languages (lang-markdown brings HTML, CSS and JavaScript for
  // embedded code) and the YAML library its frontmatter form uses: loaded with the browser.
  {
    name: 'codemirror-js',
    test: /node_modules[\\/](@codemirror[\\/]lang-javascript|@lezer[\\/]javascript)[\\/]/,
  },
  {
    name: 'codemirror-lang',
    test: /node_modules[\\/](@codemirror[\\/]lang-[^\\/]+|@lezer[\\/][^\\/]+)[\\/]/,
  },
  { name: 'codemirror', test: /node_modules[\\/](@codemirror[\\/][^\\/]+|style-mod|w3c-keyname|crelt)[\\/]/ },
  { name: 'yaml', test: /node_modules[\\/]yaml[\\/]/ },
  // The cost dashboard's charts: loaded with the dashboard.
  { name: 'uplot', test: /node_modules[\\/]uplot[\\/]/ },
  { name: 'vendor', test: /node_modules[\\/]/ },
];

const alias = {
  '@shared': resolve(import.meta.dirname, 'src-shared'),
  '@renderer': resolve(import.meta.dirname, 'src-renderer'),
};

export default defineConfig({
  main: {
    resolve: { alias },
    plugins: [copyMainResources()],
    build: {
      outDir: 'out/main',
      // Pure-JavaScript libraries `-p` loads before its first request are bundled: Node reading ~440
      // module files one by one was most of its start-up. node-pty (native), the sandbox runtime and
      // tree-sitter (which find files next to themselves) stay external.
      externalizeDeps: { exclude: ['@anthropic-ai/sdk', 'zod', 'yaml', 'diff', 'picomatch'] },
      rolldownOptions: {
        // index: the Electron main process; cli: `carapace` under plain Node (serve, -p).
        input: {
          index: resolve(import.meta.dirname, 'src-main/index.ts'),
          cli: resolve(import.meta.dirname, 'src-main/cli/index.ts'),
          // The search index's worker thread (workspace/search/search-thread.ts starts it).
          'search-worker': resolve(import.meta.dirname, 'src-main/workspace/search/search-worker.ts'),
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
    plugins: [react(), rendererResources()],
    build: {
      outDir: 'out/renderer',
      // Serve mode sends this over the network: keep it small.
      minify: process.env.CARAPACE_NO_MINIFY ? false : true,
      rolldownOptions: {
        input: resolve(import.meta.dirname, 'src-renderer/index.html'),
        // No chunk over 500 kB (scripts/check-chunk-sizes.mjs): the libraries in chunks of their own,
        // each loaded with the code that needs it (the terminal's and the team view's lazily).
        output: { codeSplitting: { groups: RENDERER_CHUNKS } },
      },
    },
  },
});
