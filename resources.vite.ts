import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);
const RESOURCES = resolve(import.meta.dirname, 'resources');
const ICONS = resolve(RESOURCES, 'icons');

/**
 * The main process's share of `resources/` (see resources/README.md), copied next to its bundle at
 * build (out/main). prices.json and default-settings.json are imported by the code that reads them,
 * so the bundler carries them (in `carapace -p` too) and no run can start without them.
 * - `wasm/`: the tree-sitter runtime and the bash grammar. They come from their npm packages rather
 *   than a copy in resources/, because the grammar's ABI must match the runtime's version, which the
 *   lockfile pins for both.
 * - `icons/`: the PNG app icons (rendered from resources/icons/carapace.svg by
 *   scripts/render-icons.mjs) for the Electron window and the desktop.
 */
export function copyMainResources(): Plugin {
  return {
    name: 'carapace:copy-main-resources',
    apply: 'build',
    writeBundle(options) {
      const out = options.dir ?? 'out/main';
      const wasm = resolve(out, 'wasm');
      mkdirSync(wasm, { recursive: true });
      for (const file of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'])
        copyFileSync(require.resolve(file), resolve(wasm, file.split('/')[1] ?? file));
      const icons = resolve(out, 'icons');
      mkdirSync(icons, { recursive: true });
      for (const name of readdirSync(ICONS).filter((n) => n.endsWith('.png')))
        copyFileSync(resolve(ICONS, name), resolve(icons, name));
    },
  };
}

/**
 * The renderer's share: index.html links resources/icons/carapace.svg as its favicon and the header
 * shows it. Vite would inline a file this small as a data: URL; it is emitted under assets/
 * instead, which serve mode hands out without the token (a browser asks for a favicon without it).
 */
export function rendererResources(): Plugin {
  return {
    name: 'carapace:renderer-resources',
    config: () => ({
      build: {
        assetsInlineLimit: (file: string) => (file.startsWith(ICONS) ? false : undefined),
      },
    }),
  };
}
