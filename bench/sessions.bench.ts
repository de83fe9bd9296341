/**
 * 32 live sessions: 32 sessions of 500 messages each, all open in tabs in real Chromium through
 * serve mode. Reports the main process's RSS, the window's JS heap, and how long a tab switch takes
 * from the click to the new transcript's last row painted (~100 switches); then the frame times of
 * scrolling through a 5,000-message session. Targets (issue 9): ≤ 400 MB, ≤ 300 MB, ≤ 50 ms p95,
 * frames ≤ 16.7 ms p95. Run with `npm run bench sessions`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { seedSessions } from '../e2e/fixtures/seed-sessions';
import { startServe, tempProject, type ServeProcess } from '../e2e/fixtures/serve';
import { launchBenchBrowser } from './browser';
import { round, summarize } from './stats';

const SESSIONS = 32;
const MESSAGES = 500;
const SWITCHES = 100;
const LONG_SESSION = 5000;
const SCROLL_FRAMES = 300;
const SCROLL_STEP_PX = 600;

/** The resident memory of a process, in MB (Linux). */
function rssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

// Browser-side code as plain strings: the TS runner's helpers (e.g. __name) do not exist in the page.
/** Clicks tab `i` and resolves with the ms until its transcript's last row has been painted. */
const SWITCH_TO = `(async ({ i, lastText }) => {
  const tab = document.querySelectorAll('[role=tablist] [role=tab]')[i];
  const panelId = tab.getAttribute('aria-controls');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const shown = () => {
    const panel = document.getElementById(panelId);
    if (!panel) return false;
    const rows = panel.querySelectorAll('.transcript-row');
    const last = rows[rows.length - 1];
    if (!last || !last.textContent.includes(lastText)) return false;
    const log = panel.querySelector('[role=log]').getBoundingClientRect();
    const box = last.getBoundingClientRect();
    return box.bottom > log.top && box.top < log.bottom;
  };
  const t0 = performance.now();
  tab.click();
  for (;;) {
    await frame();
    if (shown()) break;
    if (performance.now() - t0 > 10000) throw new Error('tab ' + i + ' never showed its last row');
  }
  // The frame after the one that drew it: by then it is on screen.
  const painted = await frame();
  return painted - t0;
})`;

const SCROLL = `(async ({ frames, step }) => {
  const log = document.querySelector('[role=tabpanel] [role=log]');
  log.scrollTop = 0;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  await frame(); await frame();
  const times = [];
  let last = await frame();
  for (let f = 0; f < frames; f++) {
    log.scrollTop += step;
    const t = await frame();
    times.push(t - last);
    last = t;
  }
  return { times, rows: log.querySelectorAll('.transcript-row').length };
})`;

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 1024 / 1024;
}

async function withServe<T>(
  sessions: number,
  messages: number,
  run: (serve: ServeProcess, lastText: string) => Promise<T>,
): Promise<T> {
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-bench-home-'));
  const project = tempProject('bench');
  const seeded = seedSessions(home, project, sessions, messages);
  const serve = await startServe({ home, project, env: { ANTHROPIC_API_KEY: 'bench' } });
  try {
    return await run(serve, seeded[0]?.lastText.split('\n').at(-1) ?? '');
  } finally {
    await serve.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}

export async function benchSessions() {
  const browser = await launchBenchBrowser();
  try {
    const tabs = await withServe(SESSIONS, MESSAGES, async (serve, lastText) => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
      await page.goto(serve.url);
      await page.waitForFunction(
        `document.querySelectorAll('[role=tablist] [role=tab]').length === ${SESSIONS}`,
        undefined,
        { timeout: 60_000 },
      );
      // Every tab shown once, so both sides hold what they keep of 32 open sessions.
      for (let i = 0; i < SESSIONS; i++)
        await page.evaluate(`${SWITCH_TO}(${JSON.stringify({ i, lastText })})`);
      let peakRss = rssMb(serve.child.pid);
      const times: number[] = [];
      for (let k = 0; k < SWITCHES; k++) {
        // Strides through the tabs (7 is prime to 32): recent and long-unseen ones alike.
        const i = (k * 7) % SESSIONS;
        times.push(await page.evaluate<number>(`${SWITCH_TO}(${JSON.stringify({ i, lastText })})`));
        peakRss = Math.max(peakRss, rssMb(serve.child.pid));
      }
      const heap = await heapMb(page);
      await page.close();
      return {
        mainRssMb: { afterSwitches: round(rssMb(serve.child.pid)), peak: round(peakRss), target: 400 },
        rendererHeapMb: { afterGc: round(heap), target: 300 },
        tabSwitchMs: { ...summarize(times), target: 50 },
      };
    });

    const scroll = await withServe(1, LONG_SESSION, async (serve, lastText) => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
      await page.goto(serve.url);
      await page
        .getByRole('log', { name: 'Transcript' })
        .getByText(lastText, { exact: true })
        .waitFor({ timeout: 60_000 });
      const result = await page.evaluate<{ times: number[]; rows: number }>(
        `${SCROLL}(${JSON.stringify({ frames: SCROLL_FRAMES, step: SCROLL_STEP_PX })})`,
      );
      await page.close();
      return {
        messages: LONG_SESSION,
        pxPerFrame: SCROLL_STEP_PX,
        frameMs: { ...summarize(result.times), target: 16.7 },
        rowsInPage: result.rows,
      };
    });

    return {
      name: 'sessions',
      sessions: SESSIONS,
      messagesEach: MESSAGES,
      switches: SWITCHES,
      ...tabs,
      scroll,
    };
  } finally {
    await browser.close();
  }
}
