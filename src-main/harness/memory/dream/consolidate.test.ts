import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../model/anthropic-client';
import { testEngine, text, toolUse } from '../../../test-support/engine';
import { tempDir } from '../../../test-support/temp';
import { consolidateNow } from './consolidate';
import { lockPath } from './consolidation-lock';
import { readDreamState, writeDreamState } from './dream-state';

const NOW = new Date('2026-12-03T12:00:00Z');
const DAY = 86_400_000;

const memory = (name: string, type: string, body: string) =>
  `---\nname: ${name}\ndescription: about ${name}\ntype: ${type}\n---\n\n${body}\n`;

const DEPLOY_NEW = memory(
  'deploy',
  'project',
  'Deploys go through `make release`, never by hand.\n\n**Why:** the hand deploy skipped migrations twice.\n\n**How to apply:** run `make release` from main.',
);

function folder(): string {
  const home = tempDir('carapace-home-');
  const dir = path.join(home, 'memory');
  for (const [file, text, days] of [
    ['deploy.md', memory('deploy', 'user', 'deploy by hand with scp'), 10],
    ['deploy-2.md', memory('deploy-2', 'user', 'deploys use make release'), 1],
    ['vague.md', memory('vague', 'user', 'the build is slow sometimes'), 0],
  ] as const) {
    const full = path.join(dir, file);
    writeDir(full, text);
    const t = (NOW.getTime() - days * DAY - 60_000) / 1000;
    utimesSync(full, t, t);
  }
  writeFileSync(
    path.join(dir, 'MEMORY.md'),
    '- [deploy](deploy.md)\n- [deploy-2](deploy-2.md)\n- [vague](vague.md)\n',
  );
  return dir;
}

function writeDir(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function scripted(content: Parameters<typeof testEngine>[0]['steps'][number]['reply']) {
  const t = await testEngine({ steps: [{ reply: content }] });
  const client = new AnthropicModelClient({ apiKey: 'test', baseURL: t.api.url, maxRetries: 0 });
  return { api: t.api, client };
}

const trashed = (dir: string): string[] =>
  existsSync(path.join(dir, '.trash'))
    ? readdirSync(path.join(dir, '.trash'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort()
    : [];

describe('consolidateNow', () => {
  it('sends the memories with their ages and writes only what passes the checks', async () => {
    const dir = folder();
    await writeDreamState(dir, { lastConsolidatedAt: null, sessionsSince: 7 });
    const { api, client } = await scripted({
      stop_reason: 'tool_use',
      content: [
        toolUse('save_consolidated_memories', {
          files: [
            { name: 'deploy.md', content: DEPLOY_NEW },
            { name: 'MEMORY.md', content: '- [deploy](deploy.md) — how deploys are done\n' },
            { name: '../escape.md', content: memory('escape', 'user', 'x') },
            { name: '/tmp/abs.md', content: memory('abs', 'user', 'x') },
            { name: 'no-reasons.md', content: memory('no-reasons', 'feedback', 'always do X') },
            { name: '.hidden.md', content: memory('hidden', 'user', 'x') },
          ],
          remove: ['deploy-2.md', '../../.ssh/id_rsa', 'MEMORY.md'],
        }),
      ],
    });
    const result = await consolidateNow({
      memoryDir: dir,
      enabled: true,
      client,
      model: 'claude-sonnet-4-5',
      now: () => NOW,
    });

    expect(result.ran).toBe(true);
    expect(result.written.sort()).toEqual(['MEMORY.md', 'deploy.md']);
    expect(result.removed).toEqual(['deploy-2.md']);
    expect(result.problems).toHaveLength(6);
    expect(result.message).toBe('Memories consolidated: 2 written, 1 removed, 6 refused.');

    // The request: every memory with its age, the index, and the save tool.
    const body = JSON.stringify(api.requests[0]?.body);
    expect(body).toContain('<memory file=\\"deploy.md\\" saved=\\"10 days ago\\">');
    expect(body).toContain('<memory file=\\"deploy-2.md\\" saved=\\"yesterday\\">');
    expect(body).toContain('the build is slow sometimes');
    expect(body).toContain('<index file=\\"MEMORY.md\\">');
    expect(api.requests[0]?.body.tools?.map((t) => t.name)).toEqual(['save_consolidated_memories']);

    expect(readFileSync(path.join(dir, 'deploy.md'), 'utf8')).toBe(DEPLOY_NEW);
    expect(readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('how deploys are done');
    expect(existsSync(path.join(dir, 'deploy-2.md'))).toBe(false);
    expect(existsSync(path.join(dir, 'vague.md'))).toBe(true);
    for (const name of ['no-reasons.md', '.hidden.md']) expect(existsSync(path.join(dir, name))).toBe(false);
    expect(existsSync(path.join(dir, '..', 'escape.md'))).toBe(false);
    expect(existsSync('/tmp/abs.md')).toBe(false);
    // Replaced and removed versions can be got back.
    expect(trashed(dir)).toEqual(['MEMORY.md', 'deploy-2.md', 'deploy.md']);
    expect(await readDreamState(dir)).toEqual({ lastConsolidatedAt: NOW.toISOString(), sessionsSince: 0 });
    expect(existsSync(lockPath(dir))).toBe(false);
  });

  it('does not run while another live process holds the lock', async () => {
    const dir = folder();
    writeFileSync(lockPath(dir), JSON.stringify({ pid: 4242, acquiredAt: NOW.toISOString(), token: 't' }));
    const { api, client } = await scripted({ content: [text('unused')] });
    const result = await consolidateNow({
      memoryDir: dir,
      enabled: true,
      client,
      model: 'claude-sonnet-4-5',
      now: () => NOW,
      lock: { isAlive: () => true },
    });
    expect(result).toMatchObject({
      ran: false,
      message: 'Another Carapace process is consolidating these memories right now.',
    });
    expect(api.requests).toHaveLength(0);
  });

  it('does nothing when memory is off, or with the demo model', async () => {
    const dir = folder();
    const { api, client } = await scripted({ content: [text('unused')] });
    const result = await consolidateNow({
      memoryDir: dir,
      enabled: false,
      client,
      model: 'm',
      now: () => NOW,
    });
    expect(result.ran).toBe(false);
    expect(api.requests).toHaveLength(0);
    const demo = await consolidateNow({
      memoryDir: dir,
      enabled: true,
      client,
      model: 'demo',
      now: () => NOW,
    });
    expect(demo).toMatchObject({ ran: false, message: expect.stringContaining('needs a Claude model') });
    expect(api.requests).toHaveLength(0);
  });

  it('changes nothing when the model does not answer through the tool, or the API fails', async () => {
    for (const reply of [
      { content: [text('I merged them in my head.')] },
      { error: { status: 500, type: 'api_error', message: 'down' } },
    ]) {
      const dir = folder();
      await writeDreamState(dir, { lastConsolidatedAt: null, sessionsSince: 7 });
      const before = readFileSync(path.join(dir, 'deploy.md'), 'utf8');
      const { client } = await scripted(reply);
      const result = await consolidateNow({
        memoryDir: dir,
        enabled: true,
        client,
        model: 'claude-sonnet-4-5',
        now: () => NOW,
      });
      expect(result.ran).toBe(false);
      expect(result.message).toMatch(/^The consolidation failed: /);
      expect(readFileSync(path.join(dir, 'deploy.md'), 'utf8')).toBe(before);
      expect((await readDreamState(dir)).sessionsSince).toBe(7);
      expect(existsSync(lockPath(dir))).toBe(false);
    }
  });
  it('leaves alone a file changed, created or removed while the model was answering', async () => {
    const dir = folder();
    const { api, client } = await scripted({
      stop_reason: 'tool_use',
      content: [
        toolUse('save_consolidated_memories', {
          files: [
            { name: 'deploy.md', content: DEPLOY_NEW },
            { name: 'fresh.md', content: memory('fresh', 'user', 'from the model') },
            { name: 'vague.md', content: memory('vague', 'user', 'the build is slow on CI') },
          ],
          remove: ['deploy-2.md'],
        }),
      ],
      hold: { afterEvents: 0, gate: 'answer' },
    });
    const running = consolidateNow({
      memoryDir: dir,
      enabled: true,
      client,
      model: 'claude-sonnet-4-5',
      now: () => NOW,
    });
    while (api.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    // Meanwhile the person edits one memory, writes a new one under a name the model also picks,
    // and edits the one the model removes.
    const edited = memory('deploy', 'user', 'deploy by hand with scp, then run migrations');
    writeFileSync(path.join(dir, 'deploy.md'), edited);
    writeFileSync(path.join(dir, 'fresh.md'), memory('fresh', 'user', 'from the person'));
    writeFileSync(path.join(dir, 'deploy-2.md'), memory('deploy-2', 'user', 'edited'));
    api.release('answer');
    const result = await running;

    expect(result.ran).toBe(true);
    expect(result.written).toEqual(['vague.md']);
    expect(result.removed).toEqual([]);
    expect(result.problems.sort()).toEqual([
      '"deploy-2.md" changed while the memories were being consolidated; left as it is now.',
      '"deploy.md" changed while the memories were being consolidated; left as it is now.',
      '"fresh.md" changed while the memories were being consolidated; left as it is now.',
    ]);
    expect(readFileSync(path.join(dir, 'deploy.md'), 'utf8')).toBe(edited);
    expect(readFileSync(path.join(dir, 'fresh.md'), 'utf8')).toContain('from the person');
    expect(readFileSync(path.join(dir, 'deploy-2.md'), 'utf8')).toContain('edited');
    expect(trashed(dir)).toEqual(['vague.md']);
  });

  it('puts a replaced or removed team memory in the team trash, where the browser restores from', async () => {
    const dir = folder();
    writeDir(path.join(dir, 'team', 'ci.md'), memory('ci', 'user', 'CI runs on push'));
    writeDir(path.join(dir, 'team', 'old.md'), memory('old', 'user', 'outdated'));
    const { client } = await scripted({
      stop_reason: 'tool_use',
      content: [
        toolUse('save_consolidated_memories', {
          files: [{ name: 'team/ci.md', content: memory('ci', 'user', 'CI runs on push and nightly') }],
          remove: ['team/old.md', 'vague.md'],
        }),
      ],
    });
    const result = await consolidateNow({
      memoryDir: dir,
      enabled: true,
      client,
      model: 'claude-sonnet-4-5',
      now: () => NOW,
    });
    expect(result.written).toEqual(['team/ci.md']);
    expect(result.removed.sort()).toEqual(['team/old.md', 'vague.md']);
    // The layout of workspace/memory-scopes.ts: `<scope root>/.trash/<ms>-<8 hex>/<name in the scope>`.
    const entries = (root: string) =>
      readdirSync(path.join(root, '.trash'), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(path.join(root, '.trash'), path.join(e.parentPath, e.name)))
        .sort();
    const id = String.raw`${NOW.getTime()}-[0-9a-f]{8}`;
    expect(entries(path.join(dir, 'team'))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${id}/ci\\.md$`)),
        expect.stringMatching(new RegExp(`^${id}/old\\.md$`)),
      ]),
    );
    expect(entries(path.join(dir, 'team'))).toHaveLength(2);
    expect(entries(dir)).toEqual([expect.stringMatching(new RegExp(`^${id}/vague\\.md$`))]);
  });
});
