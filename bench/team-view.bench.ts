/**
 * The team view while ten workers stream at once: renderer frame times with the member cards and one
 * worker's live transcript on screen, through the real serve-mode transport and a coordinator session
 * against the scripted API. Run with `npm run bench -- team-view`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startScriptedApi } from '../src-main/devtools/scripted-api/server';
import { startServe } from '../e2e/fixtures/serve';
import { launchBenchBrowser } from './browser';
import { round, summarize } from './stats';

const WORKERS = 10;
const REPLY_CHARS = 4000;

const START_FRAME_RECORDER = `
  window.frameTimes = []; window.recording = true;
  let last = performance.now();
  const tick = (t) => { window.frameTimes.push(t - last); last = t; if (window.recording) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);`;
const STOP_FRAME_RECORDER = `(() => { window.recording = false; return window.frameTimes.slice(1); })()`;

export async function benchTeamView() {
  const names = Array.from({ length: WORKERS }, (_, i) => `w${i}`);
  const text = 'Worker output with `code` and **bold** words, streaming steadily. '
    .repeat(80)
    .slice(0, REPLY_CHARS);
  const use = (name: string, input: Record<string, unknown>, id: string) => ({
    type: 'tool_use' as const,
    id,
    name,
    input,
  });
  const api = await startScriptedApi({
    scenario: {
      steps: [
        {
          when: { systemText: '# Coordinator mode', lastUserText: 'Run ten' },
          reply: {
            content: [
              use(
                'TeamCreate',
                {
                  workers: names.map((name) => ({
                    name,
                    agent_type: 'general-purpose',
                    instructions: `You are ${name}.`,
                  })),
                },
                'create',
              ),
            ],
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: '# Coordinator mode', lastUserText: `Created ${WORKERS} workers` },
          reply: {
            content: names.map((name) =>
              use('SendMessage', { to: name, message: `TASK for ${name}` }, `send-${name}`),
            ),
            stop_reason: 'tool_use',
          },
        },
        {
          when: { systemText: '# Coordinator mode' },
          times: true,
          reply: { content: [{ type: 'text', text: 'Noted.' }] },
        },
        {
          when: { systemText: '# Team member:', lastUserText: 'TASK for' },
          times: true,
          reply: { content: [{ type: 'text', text }], chunkChars: 4, delayMs: 4 },
        },
      ],
    },
  });
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-bench-team-'));
  const serve = await startServe({
    project,
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'bench' },
  });
  const browser = await launchBenchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, bypassCSP: true });
    await page.goto(serve.url);
    await page.getByRole('button', { name: 'New team session' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Run ten workers');
    await box.press('Enter');
    await page.getByRole('button', { name: /^Team view/ }).click();
    const tree = page.getByRole('tree', { name: 'Members' });
    await tree.locator('[data-member="w0"]').waitFor();
    await page.evaluate(START_FRAME_RECORDER);
    const started = Date.now();
    // One worker's live transcript open beside the cards, as a person watching would have it.
    await tree.locator('[data-member="w0"]').click();
    await page.waitForFunction(
      `document.querySelectorAll('[role=tree] [data-state="working"]').length >= ${WORKERS}`,
      undefined,
      { timeout: 60_000 },
    );
    const allWorking = Date.now();
    await page.waitForFunction(
      `[...document.querySelectorAll('[role=tree] [data-member^="w"]')].filter((e) => e.getAttribute('data-state') === 'idle').length === ${WORKERS}`,
      undefined,
      { timeout: 180_000 },
    );
    const seconds = (Date.now() - started) / 1000;
    const frames = await page.evaluate<number[]>(STOP_FRAME_RECORDER);
    return {
      name: 'team-view',
      workers: WORKERS,
      replyChars: REPLY_CHARS,
      secondsToAllWorking: round((allWorking - started) / 1000, 2),
      seconds: round(seconds, 2),
      frameMs: summarize(frames),
      framesOver50ms: frames.filter((f) => f > 50).length,
      fps: round(frames.length / seconds),
    };
  } finally {
    await browser.close();
    await serve.stop();
    await api.close();
    rmSync(project, { recursive: true, force: true });
  }
}
