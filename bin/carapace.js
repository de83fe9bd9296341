#!/usr/bin/env node
// The `carapace` command. The CLI itself is built into out/ by `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('carapace: not built yet; run "npm run build" first.');
  process.exit(2);
}
await import(cli);
