/**
 * The terminal panel under a flood: 50 MB of output through the real shell, main process, serve-mode
 * socket and xterm.js in Chromium, with the renderer's frame times recorded all the while (the page
 * must stay responsive; flow control pauses the shell when drawing falls behind). Once with the
 * GPU setting on (WebGL where a hardware GPU draws it, else the DOM renderer), once with it off.
 * Run with `npm run bench -- terminal`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { startServe } from '../e2e/fixtures/serve';
import { launchBenchBrowser } from './browser';
import { round, summarize } from './stats';

const MB = 50;

// The marker is computed by the shell, so the typed command line does not contain it; one per run,
// since a later page also receives (and redraws) the earlier terminal.
const watchSocket = (done: string) => `
  window.benchDone = false; window.wsBytes = 0;
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string') return;
        window.wsBytes += e.data.length;
        if (e.data.includes('${done}')) window.benchDone = true;
      });
    }
  };`;
const START_FRAMES = `
  window.frameTimes = []; window.recording = true;
  let last = performance.now();
  const tick = (t) => { window.frameTimes.push(t - last); last = t; if (window.recording) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);`;
const STOP_FRAMES = `(() => { window.recording = false; return window.frameTimes.slice(1); })()`;

async function flood(browser: Browser, url: string, gpu: boolean, run: number) {
  const n = 1000 + run;
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  try {
    await page.addInitScript(watchSocket(`BENCH-DONE-${n}`));
    await page.goto(url);
    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    const box = page.getByRole('dialog', { name: 'Settings' }).getByRole('checkbox', { name: /GPU/ });
    if ((await box.isChecked()) !== gpu) await box.click();
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Terminal' }).click();
    const host = page.locator('.terminal-host');
    await host.click();
    await page.waitForTimeout(500);
    const renderer = await host.getAttribute('data-renderer');
    await page.evaluate(START_FRAMES);
    const started = Date.now();
    await page.keyboard.type(
      `yes 'carapace terminal benchmark: the quick brown fox jumps over the lazy dog' | head -c ${MB * 1024 * 1024}; echo; echo BENCH-DONE-$((${n - 1}+1))`,
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction('window.benchDone === true', undefined, { timeout: 600_000, polling: 200 });
    const seconds = (Date.now() - started) / 1000;
    await page.waitForTimeout(300);
    const frames = await page.evaluate<number[]>(STOP_FRAMES);
    return {
      renderer,
      seconds: round(seconds, 2),
      mbPerSecond: round(MB / seconds),
      frameMs: summarize(frames),
      framesOver50ms: frames.filter((f) => f > 50).length,
      framesOver100ms: frames.filter((f) => f > 100).length,
      fps: round(frames.length / seconds),
    };
  } finally {
    await page.close();
  }
}

export async function benchTerminal() {
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-bench-term-'));
  const serve = await startServe({ project });
  const browser = await launchBenchBrowser();
  try {
    const gpu = await flood(browser, serve.url, true, 1);
    const dom = await flood(browser, serve.url, false, 2);
    return { name: 'terminal', outputMB: MB, gpuSetting: gpu, domRenderer: dom };
  } finally {
    await browser.close();
    await serve.stop();
    rmSync(project, { recursive: true, force: true });
  }
}
