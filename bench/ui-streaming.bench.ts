/**
 * Renderer frame times while 10 tabs stream at once, side by side, through the real serve-mode
 * transport; and how many IPC messages per second that costs. Run with `npm run bench`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startScriptedApi } from '../src-main/devtools/scripted-api/server';
import { textReply } from '../src-main/devtools/scripted-api/responder';
import { startServe } from '../e2e/fixtures/serve';
import { launchBenchBrowser } from './browser';
import { round, summarize } from './stats';

const TABS = 10;
const REPLY_CHARS = 6000;
const CHUNK = 4; // characters per text_delta: ~1 token
const DELAY_MS = 4; // between SSE events: ~250 deltas/s per stream, 2,500/s across 10 tabs

// Browser-side code as plain strings: the TS runner's helpers (e.g. __name) do not exist in the page.
const COUNT_SOCKET_FRAMES = `
  window.wsFrames = 0; window.wsBytes = 0;
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (e) => { window.wsFrames++; window.wsBytes += typeof e.data === 'string' ? e.data.length : 0; });
    }
  };`;
const START_FRAME_RECORDER = `
  window.frameTimes = []; window.recording = true; window.wsStart = window.wsFrames;
  let last = performance.now();
  const tick = (t) => { window.frameTimes.push(t - last); last = t; if (window.recording) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);`;
const STOP_FRAME_RECORDER = `(() => {
  window.recording = false;
  return { frames: window.frameTimes.slice(1), wsFrames: window.wsFrames - window.wsStart, wsBytes: window.wsBytes };
})()`;

export async function benchUiStreaming() {
  // Model-like output: paragraphs with inline code and bold, a list and a code block.
  const paragraph = `${'The quick brown fox jumps over the lazy dog; `code` and **bold** words stream by. '.repeat(5)}\n\n`;
  const extras = '- a list item\n- another item\n\n```ts\nconst answer = 42;\nconsole.log(answer);\n```\n\n';
  const text = (paragraph + paragraph + extras)
    .repeat(Math.ceil(REPLY_CHARS / (2 * paragraph.length + extras.length)))
    .slice(0, REPLY_CHARS);
  const api = await startScriptedApi({
    scenario: () => textReply(text, { chunkChars: CHUNK, delayMs: DELAY_MS }),
  });
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-bench-'));
  const serve = await startServe({
    project,
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'bench' },
  });
  const browser = await launchBenchBrowser();
  try {
    // The page's CSP (rightly) forbids string evaluation; the measuring scripts need it.
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, bypassCSP: true });
    // Count every frame the renderer receives on its socket.
    await page.addInitScript(COUNT_SOCKET_FRAMES);
    await page.goto(serve.url);
    for (let i = 0; i < TABS; i++)
      await page.getByRole('button', { name: 'New session', exact: true }).click();
    await page.getByRole('button', { name: 'Side by side' }).click();
    await page.getByRole('button', { name: 'Tile all open tabs' }).click();
    const panels = page.getByRole('tabpanel');
    await page.waitForFunction(`document.querySelectorAll('[role=tabpanel]').length === ${TABS}`);

    // Where frames go, to open in Chromium's DevTools (build with CARAPACE_NO_MINIFY=1 for names):
    // CARAPACE_BENCH_PROFILE=1 saves a CPU profile of the window while it streams, and
    // CARAPACE_BENCH_TRACE=1 (or a comma-separated list of trace categories) a trace.
    const profiler = process.env['CARAPACE_BENCH_PROFILE'] ? await page.context().newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.start');
    }
    if (process.env['CARAPACE_BENCH_TRACE'])
      await browser.startTracing(page, {
        categories: process.env['CARAPACE_BENCH_TRACE'].includes(',')
          ? process.env['CARAPACE_BENCH_TRACE'].split(',')
          : ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
      });
    await page.evaluate(START_FRAME_RECORDER);
    const started = Date.now();
    for (let i = 0; i < TABS; i++) {
      await panels.nth(i).getByRole('textbox', { name: 'Message' }).fill(`stream ${i}`);
      await panels.nth(i).getByRole('textbox', { name: 'Message' }).press('Enter');
    }
    await page.waitForFunction(`document.querySelectorAll('article[data-status="streaming"]').length > 0`);
    await page.waitForFunction(
      `document.querySelectorAll('article[data-status="streaming"]').length === 0`,
      undefined,
      { timeout: 120_000 },
    );
    const seconds = (Date.now() - started) / 1000;
    const result = await page.evaluate<{ frames: number[]; wsFrames: number; wsBytes: number }>(
      STOP_FRAME_RECORDER,
    );
    const results = path.join(import.meta.dirname, 'results');
    mkdirSync(results, { recursive: true });
    if (process.env['CARAPACE_BENCH_TRACE'])
      writeFileSync(path.join(results, 'ui-streaming.trace.json'), await browser.stopTracing());
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      writeFileSync(path.join(results, 'ui-streaming.cpuprofile'), JSON.stringify(profile));
    }
    const complete = await page.locator('article.assistant.status-complete').count();
    const frames = summarize(result.frames);
    const longFrames = result.frames.filter((f) => f > 50).length;
    // Frame times come in whole display frames (16.7 ms at 60 Hz, give or take 0.1): one past
    // 1.5 frames means a frame was missed.
    const missed = result.frames.filter((f) => f > 25).length;
    const deltaEvents = TABS * Math.ceil(REPLY_CHARS / CHUNK);
    return {
      name: 'ui-streaming',
      tabs: TABS,
      repliesCompleted: complete,
      seconds: round(seconds, 2),
      frameMs: frames,
      framesOver50ms: longFrames,
      framesMissedPercent: round((100 * missed) / Math.max(1, result.frames.length), 1),
      fps: round(result.frames.length / seconds),
      sseDeltasPerSecond: round(deltaEvents / seconds),
      ipcMessagesPerSecond: round(result.wsFrames / seconds),
      ipcKBPerSecond: round(result.wsBytes / 1024 / seconds),
    };
  } finally {
    await browser.close();
    await serve.stop();
    await api.close();
    rmSync(project, { recursive: true, force: true });
  }
}

export function saveResult(result: { name: string }) {
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${result.name}.json`), `${JSON.stringify(result, null, 2)}\n`);
}
