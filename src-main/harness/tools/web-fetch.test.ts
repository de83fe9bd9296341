import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '@shared/domain/messages';
import type { AgentEvent } from '../events/agent-event';
import type { PermissionHandler, PermissionRequest } from '../permissions/handlers';
import { text, toolUse } from '../../test-support/engine';
import { testRuntime } from '../../test-support/runtime';
import { page, redirect, startWebSite } from '../../test-support/web-site';

/*
 * WebFetch in a whole runtime (createRuntime, the real permission gate) whose model is the scripted
 * Messages API: the page comes from a real HTTP server on 127.0.0.1, and the small model's request
 * is checked for the page's Markdown and the prompt.
 */

const SMALL = 'claude-haiku-4-5';
const DOCS =
  '<html><head><title>Docs</title><script>stealCookies()</script></head><body>' +
  '<h1>Carapace docs</h1><p>The answer is <strong>42</strong>.</p></body></html>';

const results = (events: readonly AgentEvent[]): ToolResultBlock[] =>
  events.flatMap((e) => (e.type === 'tool_result' ? [e.block] : []));

const resultText = (b: ToolResultBlock | undefined): string =>
  typeof b?.content === 'string'
    ? b.content
    : (b?.content.map((c) => (c.type === 'text' ? c.text : '')).join('') ?? '');

function userSettings(home: string, permissions: object): void {
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ permissions }));
}

function projectSettings(project: string, permissions: object): void {
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ permissions }));
}

/** A handler that records every question and answers each with `answer`. */
function recordingHandler(answer: 'allow' | 'deny') {
  const asked: PermissionRequest[] = [];
  const handler: PermissionHandler = {
    resolve: (request) => {
      asked.push(request);
      return Promise.resolve({ behavior: answer, by: 'user' });
    },
  };
  return { asked, handler };
}

describe('WebFetch in a runtime', () => {
  it('sends the page as Markdown with the prompt to the small model, and its answer is the result, paid by the session', async () => {
    const site = await startWebSite({ '/docs': page(DOCS) });
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'read the docs' },
            reply: {
              content: [
                toolUse('WebFetch', { url: `${site.url}/docs`, prompt: 'What is the answer?' }, 'f1'),
              ],
              stop_reason: 'tool_use',
            },
          },
          {
            when: { model: SMALL },
            reply: {
              content: [text('The docs say the answer is 42.')],
              usage: { input_tokens: 1000, output_tokens: 20 },
            },
          },
          { when: { lastUserText: 'The docs say' }, reply: { content: [text('It is 42.')] } },
        ],
      },
      { mode: 'default', handler: recordingHandler('deny').handler },
    );
    userSettings(t.home, { allow: [`WebFetch(domain:127.0.0.1)`] });
    const { events, result } = await t.run('read the docs');

    expect(result.text).toBe('It is 42.');
    const reader = t.api.requests.find((r) => r.body.model === SMALL);
    const sent = JSON.stringify(reader?.body.messages);
    expect(sent).toContain('# Carapace docs');
    expect(sent).toContain('The answer is **42**.');
    expect(sent).toContain('What is the answer?');
    expect(sent).not.toContain('stealCookies');
    expect(reader?.body.tools).toBeUndefined();
    const fetched = results(events)[0];
    expect(fetched?.is_error).toBeFalsy();
    expect(resultText(fetched)).toBe('The docs say the answer is 42.');
    // The reader's tokens are the session's: Haiku 4.5 at $1 / $5 per million.
    const haiku = t.runtime.engine.cost.modelUsage()[SMALL];
    expect(haiku?.inputTokens).toBe(1000);
    expect(haiku?.outputTokens).toBe(20);
    expect(haiku?.costUSD).toBeCloseTo((1000 * 1 + 20 * 5) / 1e6, 9);
  });

  it('a redirect to another host is not followed: the model is told, and its fetch of the new URL asks', async () => {
    const site = await startWebSite({ '/docs': page(DOCS) });
    const elsewhere = `http://localhost:${site.port}/docs`;
    site.hits.length = 0;
    const moved = await startWebSite({ '/moved': redirect(elsewhere, 301) });
    const { asked, handler } = recordingHandler('allow');
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'follow it' },
            reply: {
              content: [toolUse('WebFetch', { url: `${moved.url}/moved`, prompt: 'Summarize' }, 'f1')],
              stop_reason: 'tool_use',
            },
          },
          {
            when: { lastUserText: 'REDIRECT DETECTED' },
            reply: {
              content: [toolUse('WebFetch', { url: elsewhere, prompt: 'Summarize' }, 'f2')],
              stop_reason: 'tool_use',
            },
          },
          { when: { model: SMALL }, reply: { content: [text('A page about 42.')] } },
          { when: { lastUserText: 'A page about 42' }, reply: { content: [text('Done.')] } },
        ],
      },
      { mode: 'default', handler },
    );
    userSettings(t.home, { allow: [`WebFetch(domain:127.0.0.1)`] });
    const { events, result } = await t.run('follow it');

    expect(result.text).toBe('Done.');
    const [first, second] = results(events);
    expect(resultText(first)).toContain('REDIRECT DETECTED: The URL redirects to a different host.');
    expect(resultText(first)).toContain(`Redirect URL: ${elsewhere}`);
    expect(resultText(first)).toContain('Status: 301 Moved Permanently');
    // 127.0.0.1 was allowed by the rule; localhost, another host, was asked about, once.
    expect(asked).toHaveLength(1);
    expect(asked[0]?.toolName).toBe('WebFetch');
    expect(asked[0]?.input).toEqual({ url: elsewhere, prompt: 'Summarize' });
    expect(asked[0]?.reason).toBe('WebFetch would fetch from localhost');
    expect(asked[0]?.suggestions).toEqual(['WebFetch(domain:localhost)']);
    expect(resultText(second)).toBe('A page about 42.');
    // The first server was never asked for the page it redirected to; the page came from localhost.
    expect(moved.hits.map((h) => h.path)).toEqual(['/moved']);
    expect(site.hits).toEqual([{ path: '/docs', host: `localhost:${site.port}` }]);
  });

  it('a denied domain is refused before anything is fetched, even beside a bare allow', async () => {
    const site = await startWebSite({ '/docs': page(DOCS) });
    const { asked, handler } = recordingHandler('allow');
    const t = await testRuntime(
      {
        steps: [
          {
            when: { lastUserText: 'fetch it' },
            reply: {
              content: [toolUse('WebFetch', { url: `${site.url}/docs`, prompt: 'What?' }, 'f1')],
              stop_reason: 'tool_use',
            },
          },
          { when: { lastUserText: 'denied' }, reply: { content: [text('I may not fetch that.')] } },
        ],
      },
      { mode: 'default', handler },
    );
    userSettings(t.home, { allow: ['WebFetch'] });
    projectSettings(t.project, { deny: ['WebFetch(domain:127.0.0.1)'] });
    const { events, result } = await t.run('fetch it');

    expect(result.text).toBe('I may not fetch that.');
    const refused = results(events)[0];
    expect(refused?.is_error).toBe(true);
    expect(resultText(refused)).toContain('denied by the rule WebFetch(domain:127.0.0.1) (project settings)');
    expect(asked).toEqual([]);
    expect(site.hits).toEqual([]);
    expect(t.api.requests.some((r) => r.body.model === SMALL)).toBe(false);
  });

  it('fetches a page once within 15 minutes: a second question about it is answered from the cache', async () => {
    const site = await startWebSite({ '/docs': page(DOCS) });
    const url = `${site.url}/docs?cache-test`;
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'twice' },
          reply: { content: [toolUse('WebFetch', { url, prompt: 'First?' }, 'f1')], stop_reason: 'tool_use' },
        },
        { when: { model: SMALL, lastUserText: 'First?' }, reply: { content: [text('first answer')] } },
        {
          when: { lastUserText: 'first answer' },
          reply: {
            content: [toolUse('WebFetch', { url, prompt: 'Second?' }, 'f2')],
            stop_reason: 'tool_use',
          },
        },
        { when: { model: SMALL, lastUserText: 'Second?' }, reply: { content: [text('second answer')] } },
        { when: { lastUserText: 'second answer' }, reply: { content: [text('Done.')] } },
      ],
    });
    const { events } = await t.run('twice');
    expect(results(events).map(resultText)).toEqual(['first answer', 'second answer']);
    expect(site.hits).toHaveLength(1);
    const readers = t.api.requests
      .filter((r) => r.body.model === SMALL)
      .map((r) => JSON.stringify(r.body.messages));
    expect(readers).toHaveLength(2);
    for (const sent of readers) expect(sent).toContain('The answer is **42**.');
  });

  it('refuses a file: URL and a URL with credentials with a clear error, fetching nothing', async () => {
    const site = await startWebSite({ '/docs': page(DOCS) });
    const hidden = `http://user:pw@127.0.0.1:${site.port}/docs`;
    const t = await testRuntime({
      steps: [
        {
          when: { lastUserText: 'go' },
          reply: {
            content: [
              toolUse('WebFetch', { url: 'file:///etc/passwd', prompt: 'x' }, 'f1'),
              toolUse('WebFetch', { url: hidden, prompt: 'x' }, 'f2'),
            ],
            stop_reason: 'tool_use',
          },
        },
        { when: { lastUserText: 'WebFetch' }, reply: { content: [text('Refused.')] } },
      ],
    });
    const { events } = await t.run('go');
    const [file, creds] = results(events);
    expect(file?.is_error).toBe(true);
    expect(resultText(file)).toBe('WebFetch fetches http and https URLs only, not file: URLs');
    expect(creds?.is_error).toBe(true);
    expect(resultText(creds)).toContain('refuses URLs with a user name or password');
    expect(site.hits).toEqual([]);
  });
});
