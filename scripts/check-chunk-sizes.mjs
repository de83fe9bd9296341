#!/usr/bin/env node
// Fails when a built renderer chunk exceeds the limit (issue 9: no chunk over 500 kB), so a new
// import cannot quietly fold a large library back into the window's first load. Run after
// `npm run build`: `node scripts/check-chunk-sizes.mjs [assets-dir] [limit-bytes]`.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = path.resolve(process.argv[2] ?? path.join(ROOT, 'out/renderer/assets'));
// kB as the build reports them: thousands of bytes.
const limit = Number(process.argv[3] ?? 500_000);

if (!existsSync(dir)) {
  console.error(`No build output in ${dir}: run npm run build first.`);
  process.exit(2);
}
const chunks = readdirSync(dir)
  .filter((name) => name.endsWith('.js'))
  .map((name) => ({ name, bytes: statSync(path.join(dir, name)).size }))
  .sort((a, b) => b.bytes - a.bytes);
if (chunks.length === 0) {
  console.error(`No JavaScript chunks in ${dir}.`);
  process.exit(2);
}
const over = chunks.filter((c) => c.bytes > limit);
for (const c of chunks)
  console.log(
    `${c.bytes > limit ? 'TOO BIG' : 'ok     '} ${(c.bytes / 1000).toFixed(1).padStart(8)} kB  ${c.name}`,
  );
if (over.length > 0) {
  console.error(
    `${over.length} chunk(s) over ${limit / 1000} kB: split them (React.lazy, codeSplitting groups in electron.vite.config.ts).`,
  );
  process.exit(1);
}
