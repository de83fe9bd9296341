import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadedMemory, LoadedMemoryFile, MemoryTree } from '@shared/domain/memory';
import type { EventPayload, RequestChannel, RequestInput } from '@shared/ipc/contract';
import { memoryDirFor } from '../harness/memory/dir/paths';
import { silentLogger } from '../platform/logger';
import { testCarapace } from '../test-support/carapace';
import { createHandlers } from './handlers';
import { IpcRouter } from './router';

const ctx = { transport: 'websocket' as const };

/** A composed Carapace with one project open, driven through the real router and handlers. */
async function setup(scenario: Parameters<typeof testCarapace>[0] = { steps: [] }) {
  const t = await testCarapace(scenario);
  const project = t.carapace.services.workspace.open(t.project).project;
  const router = new IpcRouter(createHandlers(t.carapace.services), silentLogger);
  const call = <C extends RequestChannel>(channel: C, input: RequestInput<C>) =>
    router.dispatch(channel, input, ctx);
  const raw = (channel: string, input: unknown) => router.dispatch(channel, input, ctx);
  const changes: EventPayload<'memory.changed'>[] = [];
  t.carapace.hub.subscribe((event, payload) => {
    if (event === 'memory.changed') changes.push(payload as EventPayload<'memory.changed'>);
  });
  const memoryDir = memoryDirFor({ carapaceHome: t.home, projectRoot: t.project });
  return { t, projectId: project.id, call, raw, changes, memoryDir };
}

async function until(condition: () => boolean, ms = 5000, poll?: () => Promise<void>): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    await poll?.();
    if (condition()) return;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('memory.* through the router', () => {
  it('answers malformed and hostile input with a typed error, never a crash or a file outside', async () => {
    const { raw, projectId } = await setup();
    const file = { projectId, scope: 'auto-memory', name: 'a.md' };
    const cases: [string, unknown][] = [
      ['memory.read', {}],
      ['memory.read', null],
      ['memory.read', 'a.md'],
      ['memory.read', { ...file, scope: 'home' }],
      ['memory.read', { ...file, name: 42 }],
      ['memory.read', { ...file, root: -1 }],
      ['memory.read', { ...file, root: 1.5 }],
      ['memory.read', { ...file, path: '/etc/passwd' }],
      ['memory.read', { ...file, name: '' }],
      ['memory.read', { ...file, name: 'x'.repeat(5000) }],
      ['memory.read', { ...file, name: '../../../../etc/passwd.md' }],
      ['memory.read', { ...file, name: '/etc/passwd.md' }],
      ['memory.read', { ...file, name: 'a\0.md' }],
      ['memory.write', { ...file, text: 'x' }],
      ['memory.write', { ...file, text: 'x', baseVersion: null, name: '../../../../../tmp/pwn.md' }],
      ['memory.create', { ...file, type: 'secret' }],
      ['memory.rename', { ...file, newName: '/tmp/pwn.md' }],
      ['memory.restore', { projectId, scope: 'auto-memory', id: '../../x' }],
      ['memory.tree', { projectId: '' }],
    ];
    for (const [channel, input] of cases) {
      const result = await raw(channel, input);
      expect(result, `${channel} ${JSON.stringify(input).slice(0, 80)}`).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT' },
      });
    }
    expect(existsSync('/tmp/pwn.md')).toBe(false);
    expect(await raw('memory.tree', { projectId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await raw('memory.loaded', { sessionId: '../x' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('creates, edits with a version, meets a conflict, deletes and restores a memory', async () => {
    const { call, projectId, memoryDir } = await setup();
    const ref = { projectId, scope: 'auto-memory' as const, name: 'style.md' };
    const created = await call('memory.create', { ...ref, type: 'feedback' });
    if (!created.ok) throw new Error(created.error.message);
    const made = created.value as { text: string; version: string };
    expect(readFileSync(path.join(memoryDir, 'style.md'), 'utf8')).toBe(made.text);

    const edited = made.text.replace('Write the memory here.', 'Tabs, not spaces.');
    const saved = await call('memory.write', { ...ref, text: edited, baseVersion: made.version });
    expect(saved).toMatchObject({ ok: true, value: { kind: 'saved' } });

    // The browser still holds the first version; the disk moved on.
    const stale = await call('memory.write', {
      ...ref,
      text: `${made.text}\nmine`,
      baseVersion: made.version,
    });
    expect(stale).toMatchObject({ ok: true, value: { kind: 'conflict', diskText: edited } });
    expect(readFileSync(path.join(memoryDir, 'style.md'), 'utf8')).toBe(edited);

    const invalid = await call('memory.write', { ...ref, text: 'no frontmatter', baseVersion: null });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    const deleted = await call('memory.delete', { ...ref });
    if (!deleted.ok) throw new Error(deleted.error.message);
    expect(existsSync(path.join(memoryDir, 'style.md'))).toBe(false);
    const trash = await call('memory.trash', { projectId, scope: 'auto-memory' });
    expect(trash).toMatchObject({ ok: true, value: [{ name: 'style.md' }] });
    const { id } = deleted.value as { id: string };
    const restored = await call('memory.restore', { projectId, scope: 'auto-memory', id });
    expect(restored).toMatchObject({ ok: true, value: { name: 'style.md' } });
    expect(readFileSync(path.join(memoryDir, 'style.md'), 'utf8')).toBe(edited);

    const tree = await call('memory.tree', { projectId });
    if (!tree.ok) throw new Error(tree.error.message);
    const { scopes } = tree.value as MemoryTree;
    const auto = scopes.find((s) => s.scope === 'auto-memory');
    expect(auto?.files).toEqual([expect.objectContaining({ name: 'style.md', type: 'feedback' })]);
  });

  it('sends memory.changed when a watched file changes on disk, until unwatched', async () => {
    const { call, projectId, memoryDir, changes } = await setup();
    expect(await call('memory.watch', { projectId })).toMatchObject({ ok: true, value: { watching: true } });
    writeFileSync(path.join(memoryDir, 'MEMORY.md'), '- [a](a.md)\n');
    await until(() => changes.length > 0);
    expect(changes[0]).toEqual({ projectId, scope: 'auto-memory', root: 0, name: 'MEMORY.md' });
    expect(await call('memory.unwatch', { projectId })).toMatchObject({
      ok: true,
      value: { watching: false },
    });
    const count = changes.length;
    writeFileSync(path.join(memoryDir, 'MEMORY.md'), '- [b](b.md)\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(changes.length).toBe(count);
  });

  it('closes the watchers of a project forgotten from the list', async () => {
    const { call, projectId, t } = await setup();
    await call('memory.watch', { projectId });
    expect(t.carapace.services.memory.files.isWatching(projectId)).toBe(true);
    expect(await call('projects.forget', { path: t.project })).toMatchObject({ ok: true });
    expect(t.carapace.services.memory.files.isWatching(projectId)).toBe(false);
  });

  it('lists what a session loaded, in order, with the import that pulled each file in', async () => {
    const { call, projectId, t } = await setup({
      steps: [{ reply: { content: [{ type: 'text', text: 'Done.' }] } }],
    });
    writeFileSync(path.join(t.project, 'CLAUDE.md'), 'Answer in French. See @docs/notes.md');
    mkdirSync(path.join(t.project, 'docs'));
    writeFileSync(path.join(t.project, 'docs', 'notes.md'), 'Build with make.');
    const session = t.carapace.services.workspace.createSession(projectId);
    t.carapace.services.sessions.send(session.id, 'hello');
    const inProject = async () => {
      const r = await call('memory.loaded', { sessionId: session.id });
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as LoadedMemory).files.filter((f) => f.path.startsWith(t.project));
    };
    let files: LoadedMemoryFile[] = [];
    await until(
      () => files.length >= 2,
      10_000,
      async () => {
        files = await inProject();
      },
    );
    const claude = path.join(t.project, 'CLAUDE.md');
    expect(files.map((f) => [f.path, f.importedBy])).toEqual([
      [claude, null],
      [path.join(t.project, 'docs', 'notes.md'), claude],
    ]);
    // The CLAUDE.md opens in the browser (Project scope, the project's own folder); the import is no scope file.
    const tree = await call('memory.tree', { projectId });
    const roots = (tree.ok ? (tree.value as MemoryTree) : null)?.scopes.find(
      (s) => s.scope === 'project',
    )?.roots;
    expect(files[0]?.ref).toEqual({ scope: 'project', root: (roots?.length ?? 0) - 1, name: 'CLAUDE.md' });
    expect(files[1]?.ref).toBeNull();
  });

  it('runs "Consolidate now" and answers with what happened, never an internal error', async () => {
    const { call, projectId } = await setup();
    const consolidated = await call('memory.consolidate', { projectId });
    expect(consolidated).toMatchObject({
      ok: true,
      value: { ran: expect.any(Boolean), message: expect.any(String) },
    });
  });
});
