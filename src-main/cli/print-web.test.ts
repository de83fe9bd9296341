import { realpathSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { text, toolUse } from '../test-support/engine';
import { tempDir } from '../test-support/temp';
import { loopbackName, page, redirect, startWebSite } from '../test-support/web-site';
import { capturePrint, printEnv } from '../test-support/print-run';

/*
 * WebFetch and WebSearch through `carapace -p` against the scripted Messages API, the pages served by
 * a real HTTP server on 127.0.0.1. Print mode never asks: a fetch no rule allows is refused, told to
 * the model and listed in permission_denials.
 */

type StepInput = ScenarioInput['steps'][number];
const SMALL = 'claude-haiku-4-5';
const DOCS = '<html><body><h1>Release</h1><p>Version <em>2.1</em> is out.</p></body></html>';

interface PrintResult {
  is_error: boolean;
  result: string;
  total_cost_usd: number;
  modelUsage: Record<
    string,
    { inputTokens: number; outputTokens: number; webSearchRequests: number; costUSD: number }
  >;
  permission_denials: { tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }[];
}

async function setup(steps: StepInput[]) {
  const api = await startScriptedApi({
    scenario: { steps: [...steps, { times: true, reply: { content: [text('Done.')] } }] },
  });
  onTestFinished(() => api.close());
  const home = tempDir('carapace-web-home-');
  const project = realpathSync(tempDir('carapace-web-project-'));
  const env = printEnv(home, api.url);
  const run = async (argv: string[]) => {
    const { code, out } = await capturePrint(
      [...argv, '--model', 'claude-sonnet-4-5', '--output-format', 'json'],
      { env, cwd: project },
    );
    return { code, result: JSON.parse(out) as PrintResult };
  };
  /** The text of the tool results the main model was sent, in order. */
  const toolResults = () =>
    api.requests
      .filter((r) => r.body.model !== SMALL)
      .flatMap((r) => (r.body.messages ?? []).slice(-1))
      .flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; content?: unknown }[]) : []))
      .filter((b) => b.type === 'tool_result')
      .map((b) => JSON.stringify(b.content));
  return { api, run, toolResults };
}

describe('carapace -p with WebFetch', () => {
  it('fetches a page a rule allows: its Markdown and the prompt reach the small model, whose cost is in the result', async () => {
    const site = await startWebSite({ '/release': page(DOCS) });
    const { api, run } = await setup([
      {
        when: { lastUserText: 'what version' },
        reply: {
          content: [
            toolUse('WebFetch', { url: `${site.url}/release`, prompt: 'Which version is out?' }, 'f1'),
          ],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { model: SMALL },
        reply: { content: [text('Version 2.1.')], usage: { input_tokens: 400, output_tokens: 10 } },
      },
      { when: { lastUserText: 'Version 2.1.' }, reply: { content: [text('2.1 is out.')] } },
    ]);
    const { code, result } = await run([
      '-p',
      'what version',
      '--allowedTools',
      'WebFetch(domain:127.0.0.1)',
    ]);

    expect(code).toBe(0);
    expect(result.result).toBe('2.1 is out.');
    expect(result.permission_denials).toEqual([]);
    const reader = JSON.stringify(api.requests.find((r) => r.body.model === SMALL)?.body.messages);
    expect(reader).toContain('# Release');
    expect(reader).toContain('Version _2.1_ is out.');
    expect(reader).toContain('Which version is out?');
    expect(result.modelUsage[SMALL]).toMatchObject({ inputTokens: 400, outputTokens: 10 });
    expect(result.modelUsage[SMALL]?.costUSD).toBeCloseTo((400 * 1 + 10 * 5) / 1e6, 9);
    const main = result.modelUsage['claude-sonnet-4-5']?.costUSD ?? 0;
    expect(result.total_cost_usd).toBeCloseTo(main + (400 * 1 + 10 * 5) / 1e6, 9);
  });

  it('a redirect to another host comes back to the model, and fetching it is refused: nobody can be asked', async () => {
    const site = await startWebSite({ '/release': page(DOCS) });
    const elsewhere = `http://localhost:${site.port}/release`;
    const moved = await startWebSite({ '/old': redirect(elsewhere) });
    const { api, run, toolResults } = await setup([
      {
        when: { lastUserText: 'what version' },
        reply: {
          content: [toolUse('WebFetch', { url: `${moved.url}/old`, prompt: 'Version?' }, 'f1')],
          stop_reason: 'tool_use',
        },
      },
      {
        when: { lastUserText: 'REDIRECT DETECTED' },
        reply: {
          content: [toolUse('WebFetch', { url: elsewhere, prompt: 'Version?' }, 'f2')],
          stop_reason: 'tool_use',
        },
      },
    ]);
    const { code, result } = await run([
      '-p',
      'what version',
      '--allowedTools',
      'WebFetch(domain:127.0.0.1)',
    ]);

    expect(code).toBe(0);
    const [first, second] = toolResults();
    expect(first).toContain(`Redirect URL: ${elsewhere}`);
    expect(second).toContain(
      'Permission to use WebFetch was denied: WebFetch would fetch from localhost — it needs approval and nobody can be asked here.',
    );
    expect(result.permission_denials).toEqual([
      { tool_name: 'WebFetch', tool_use_id: 'f2', tool_input: { url: elsewhere, prompt: 'Version?' } },
    ]);
    expect(site.hits).toEqual([]);
    expect(api.requests.some((r) => r.body.model === SMALL)).toBe(false);
  });

  it('a denied domain is refused, even in bypassPermissions mode', async () => {
    const site = await startWebSite({ '/release': page(DOCS) });
    const { run, toolResults } = await setup([
      {
        when: { lastUserText: 'what version' },
        reply: {
          content: [toolUse('WebFetch', { url: `${site.url}/release`, prompt: 'Version?' }, 'f1')],
          stop_reason: 'tool_use',
        },
      },
    ]);
    const { result } = await run([
      '-p',
      'what version',
      '--permission-mode',
      'bypassPermissions',
      '--disallowedTools',
      'WebFetch(domain:127.0.0.1)',
    ]);
    expect(toolResults()[0]).toContain('denied by the rule WebFetch(domain:127.0.0.1) (cli settings)');
    expect(result.permission_denials.map((d) => d.tool_name)).toEqual(['WebFetch']);
    expect(site.hits).toEqual([]);
  });
});

const rebound = await loopbackName();

describe('carapace -p with WebFetch and addresses', () => {
  it('127.0.0.1 spelt as a number or in hex is asked about, and allowed, as 127.0.0.1; the metadata address as itself', async () => {
    const site = await startWebSite({ '/release': page(DOCS) });
    const calls = [
      toolUse('WebFetch', { url: `http://2130706433:${site.port}/release`, prompt: 'Version?' }, 'n1'),
      toolUse('WebFetch', { url: `http://0x7f.1:${site.port}/release`, prompt: 'Version?' }, 'n2'),
    ];
    const steps: StepInput[] = [
      { when: { lastUserText: 'what version' }, reply: { content: calls, stop_reason: 'tool_use' } },
      { when: { model: SMALL }, times: 2, reply: { content: [text('Version 2.1.')] } },
    ];
    const asked = await setup([
      {
        when: { lastUserText: 'what version' },
        reply: {
          content: [
            ...calls,
            toolUse('WebFetch', { url: 'http://169.254.169.254/latest/meta-data/', prompt: 'Keys?' }, 'm1'),
          ],
          stop_reason: 'tool_use',
        },
      },
    ]);
    const denied = await asked.run(['-p', 'what version']);
    const refusals = asked.toolResults();
    expect(refusals).toHaveLength(3);
    expect(refusals[0]).toContain('WebFetch would fetch from 127.0.0.1 — it needs approval');
    expect(refusals[1]).toContain('WebFetch would fetch from 127.0.0.1 — it needs approval');
    expect(refusals[2]).toContain('WebFetch would fetch from 169.254.169.254 — it needs approval');
    expect(denied.result.permission_denials.map((d) => d.tool_use_id)).toEqual(['n1', 'n2', 'm1']);
    expect(site.hits).toEqual([]);

    const allowed = await setup(steps);
    const { result } = await allowed.run([
      '-p',
      'what version',
      '--allowedTools',
      'WebFetch(domain:127.0.0.1)',
    ]);
    expect(result.permission_denials).toEqual([]);
    expect(allowed.toolResults()).toEqual([JSON.stringify('Version 2.1.'), JSON.stringify('Version 2.1.')]);
    expect(site.hits.map((h) => h.path)).toEqual(['/release', '/release']);
  });

  it.skipIf(rebound === null)(
    'an allowed name that resolves to this machine is refused, naming the address; so is 127.0.0.1 spelt as IPv6',
    async () => {
      const site = await startWebSite({ '/release': page(DOCS) });
      const { api, run, toolResults } = await setup([
        {
          when: { lastUserText: 'what version' },
          reply: {
            content: [
              toolUse(
                'WebFetch',
                { url: `http://${rebound}:${site.port}/release`, prompt: 'Version?' },
                'r1',
              ),
              toolUse(
                'WebFetch',
                { url: `http://[::ffff:127.0.0.1]:${site.port}/release`, prompt: 'V?' },
                'r2',
              ),
            ],
            stop_reason: 'tool_use',
          },
        },
      ]);
      const { result } = await run([
        '-p',
        'what version',
        '--allowedTools',
        `WebFetch(domain:${rebound})`,
        '--allowedTools',
        'WebFetch(domain:[::ffff:7f00:1])',
      ]);
      expect(result.permission_denials).toEqual([]);
      const [byName, asV6] = toolResults();
      expect(byName).toMatch(
        /resolves to (127\.0\.0\.1|::1), a loopback address: .*fetch it by its address to ask for it/,
      );
      expect(asV6).toContain(
        'is 127.0.0.1 written as an IPv6 address; fetch it by its IPv4 address (127.0.0.1)',
      );
      expect(site.hits).toEqual([]);
      expect(api.requests.some((r) => r.body.model === SMALL)).toBe(false);
    },
  );
});

describe('carapace -p with WebSearch', () => {
  it('is refused unless allowed; allowed, its searches are priced per request in total_cost_usd', async () => {
    const steps: StepInput[] = [
      {
        when: { lastUserText: 'search it' },
        reply: { content: [toolUse('WebSearch', { query: 'carapace 2.1' }, 's1')], stop_reason: 'tool_use' },
      },
      {
        when: { model: SMALL },
        reply: {
          content: [
            {
              type: 'server_tool_use',
              id: 'srvtoolu_1',
              name: 'web_search',
              input: { query: 'carapace 2.1' },
            },
            {
              type: 'web_search_tool_result',
              tool_use_id: 'srvtoolu_1',
              content: [{ type: 'web_search_result', url: 'https://example.com/2.1', title: '2.1 notes' }],
            },
            text('2.1 shipped.'),
          ],
          usage: { input_tokens: 1000, output_tokens: 10, server_tool_use: { web_search_requests: 2 } },
        },
      },
    ];
    const refused = await setup(steps);
    const denied = await refused.run(['-p', 'search it']);
    expect(denied.result.permission_denials.map((d) => d.tool_name)).toEqual(['WebSearch']);
    expect(refused.toolResults()[0]).toContain('WebSearch searches the web — it needs approval');

    const allowed = await setup(steps);
    const { result } = await allowed.run(['-p', 'search it', '--allowedTools', 'WebSearch']);
    expect(result.permission_denials).toEqual([]);
    expect(allowed.toolResults()[0]).toContain('2.1 notes');
    expect(result.modelUsage[SMALL]?.webSearchRequests).toBe(2);
    expect(result.modelUsage[SMALL]?.costUSD).toBeCloseTo((1000 * 1 + 10 * 5) / 1e6 + 2 * 0.01, 9);
    const main = result.modelUsage['claude-sonnet-4-5']?.costUSD ?? 0;
    expect(result.total_cost_usd).toBeCloseTo(main + (1000 * 1 + 10 * 5) / 1e6 + 2 * 0.01, 9);
  });
});
