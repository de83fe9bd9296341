// Renders resources/icons/carapace.svg into the PNG sizes desktops ask for (16…512), with the
// Chromium the e2e tests use: no image library to install. Run after changing the SVG:
//   node scripts/render-icons.mjs
// The PNGs are committed, so a build needs no browser.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const dir = path.join(import.meta.dirname, '..', 'resources', 'icons');
const svg = readFileSync(path.join(dir, 'carapace.svg'), 'utf8');
const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const browser = await chromium.launch({
  ...(executablePath ? { executablePath } : {}),
  args: ['--no-sandbox'],
});
try {
  for (const size of [16, 32, 64, 128, 256, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}">`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    writeFileSync(path.join(dir, `carapace-${size}.png`), await page.screenshot({ omitBackground: true }));
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(`Wrote carapace-{16,32,64,128,256,512}.png in ${dir}`);
