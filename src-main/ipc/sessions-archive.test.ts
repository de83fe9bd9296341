import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestChannel, RequestInput } from '@shared/ipc/contract';
import { createHandlers } from './handlers';
import { IpcRouter } from './router';
import { silentLogger } from '../platform/logger';
import { testCarapace } from '../test-support/carapace';
import { tempDir } from '../test-support/temp';
import { INDEX_NAME } from '../workspace/session-index';

const ctx = { transport: 'websocket' as const };

/** A composed Carapace with one project open, driven through the real router and handlers. */
async function setup(scenario: Parameters<typeof testCarapace>[0] = { steps: [] }) {
  const t = await testCarapace(scenario);
  const { workspace } = t.carapace.services;
  const project = workspace.open(t.project).project;
  const router = new IpcRouter(createHandlers(t.carapace.services), silentLogger);
  const call = <C extends RequestChannel>(channel: C, input: RequestInput<C>) =>
    router.dispatch(channel, input, ctx);
  const events: string[] = [];
  t.carapace.hub.subscribe((event, payload) => {
    if (event === 'sessions.removed') events.push(`removed ${(payload as { sessionId: string }).sessionId}`);
  });
  const projectDir = path.join(t.home, 'projects', project.id);
  return { t, project, call, events, projectDir, trashDir: path.join(t.home, 'trash', project.id) };
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const ids = (list: { id: string }[]) => list.map((s) => s.id);

/** The archive and trash of sessions (workspace/session-archive.ts) through the real router and handlers. */
describe('sessions.archive, sessions.delete and the trash', () => {
  it('archives a session out of the list and tabs, and brings it back whole', async () => {
    const { t, project, call, events, projectDir } = await setup();
    const { workspace, sessions } = t.carapace.services;
    const a = workspace.createSession(project.id);
    const b = workspace.createSession(project.id);
    const before = readFileSync(path.join(projectDir, `${a.id}.jsonl`), 'utf8');

    const archived = await call('sessions.archive', { projectId: project.id, sessionId: a.id });
    expect(archived).toMatchObject({ ok: true, value: { id: a.id, title: a.title } });
    expect(ids(sessions.list(project.id))).toEqual([b.id]);
    expect(workspace.tabs(project.id).open).toEqual([b.id]);
    expect(events).toEqual([`removed ${a.id}`]);
    expect(await call('sessions.archived', { projectId: project.id })).toMatchObject({
      ok: true,
      value: [{ id: a.id }],
    });
    // Archived, it cannot be opened by id until it is back.
    expect(await call('sessions.get', { sessionId: a.id })).toMatchObject({ ok: false });

    const back = await call('sessions.unarchive', { projectId: project.id, sessionId: a.id });
    expect(back).toMatchObject({ ok: true, value: { id: a.id, projectId: project.id } });
    expect(ids(sessions.list(project.id)).sort()).toEqual([a.id, b.id].sort());
    expect(await call('sessions.archived', { projectId: project.id })).toEqual({ ok: true, value: [] });
    expect(readFileSync(path.join(projectDir, `${a.id}.jsonl`), 'utf8')).toBe(before);
    expect(await call('sessions.get', { sessionId: a.id })).toMatchObject({ ok: true });
  });

  it('deletes to the trash (files and folder), restores, and deletes forever only from the trash', async () => {
    const { t, project, call, projectDir, trashDir } = await setup();
    const { workspace, sessions } = t.carapace.services;
    const a = workspace.createSession(project.id);
    // A session's folder (sub-agents, team) travels with it.
    mkdirSync(path.join(projectDir, a.id, 'subagents'), { recursive: true });
    writeFileSync(path.join(projectDir, a.id, 'subagents', 'x.jsonl'), '{}\n');

    const trashed = await call('sessions.delete', { projectId: project.id, sessionId: a.id });
    expect(trashed).toMatchObject({ ok: true, value: { id: a.id } });
    expect((trashed as { value?: { trashedAt?: string } }).value?.trashedAt).toMatch(/^\d{4}-/);
    expect(sessions.list(project.id)).toEqual([]);
    expect(existsSync(path.join(projectDir, `${a.id}.jsonl`))).toBe(false);
    expect(existsSync(path.join(trashDir, a.id, 'subagents', 'x.jsonl'))).toBe(true);
    expect(await call('sessions.trash', { projectId: project.id })).toMatchObject({
      ok: true,
      value: [{ id: a.id }],
    });

    expect(await call('sessions.restore', { projectId: project.id, sessionId: a.id })).toMatchObject({
      ok: true,
      value: { id: a.id },
    });
    expect(ids(sessions.list(project.id))).toEqual([a.id]);
    expect(existsSync(path.join(projectDir, a.id, 'subagents', 'x.jsonl'))).toBe(true);
    expect(readdirSync(trashDir).filter((n) => n !== INDEX_NAME)).toEqual([]);

    // Archived sessions can be trashed too; "delete forever" refuses anything not in the trash.
    await call('sessions.archive', { projectId: project.id, sessionId: a.id });
    expect(await call('sessions.deleteForever', { projectId: project.id, sessionId: a.id })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await call('sessions.delete', { projectId: project.id, sessionId: a.id })).toMatchObject({
      ok: true,
    });
    expect(await call('sessions.archived', { projectId: project.id })).toEqual({ ok: true, value: [] });
    expect(await call('sessions.deleteForever', { projectId: project.id, sessionId: a.id })).toEqual({
      ok: true,
      value: { deleted: true },
    });
    expect(readdirSync(trashDir).filter((n) => n !== INDEX_NAME)).toEqual([]);
    expect(await call('sessions.trash', { projectId: project.id })).toEqual({ ok: true, value: [] });
  });

  it("ends the session's terminal shell when it is archived or deleted", async () => {
    const { t, project, call } = await setup();
    const { workspace, terminals } = t.carapace.services;
    const exited: string[] = [];
    t.carapace.hub.subscribe((event, payload) => {
      if (event === 'terminal.exit') exited.push((payload as { terminalId: string }).terminalId);
    });
    for (const channel of ['sessions.archive', 'sessions.delete'] as const) {
      const a = workspace.createSession(project.id);
      const { terminalId } = await terminals.open(a.id, t.project, 80, 24);
      expect(await call(channel, { projectId: project.id, sessionId: a.id })).toMatchObject({ ok: true });
      expect(await call('terminal.find', { sessionId: a.id })).toEqual({
        ok: true,
        value: { terminalId: null },
      });
      // The shell exits once killed (SIGHUP to its group); slow only on a loaded machine.
      await until(() => exited.includes(terminalId), 30_000);
    }
  });

  it('refuses a session that is working, with a clear error, and moves nothing', async () => {
    // A reply that streams slowly: the session is still working while we ask.
    const slow = { content: [{ type: 'text' as const, text: 'a slow reply' }], chunkChars: 1, delayMs: 400 };
    const { t, project, call, projectDir } = await setup({ steps: [{ reply: slow }] });
    const { workspace, sessions } = t.carapace.services;
    const a = workspace.createSession(project.id);
    sessions.send(a.id, 'hello');
    for (const channel of ['sessions.archive', 'sessions.delete'] as const) {
      const result = await call(channel, { projectId: project.id, sessionId: a.id });
      expect(result).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
      expect(!result.ok && result.error.message).toMatch(/stop it first/);
    }
    expect(existsSync(path.join(projectDir, `${a.id}.jsonl`))).toBe(true);
    sessions.stop(a.id);
  });

  it('leaves a session it failed to archive or delete reachable, where it was', async () => {
    const { t, project, call, projectDir, trashDir } = await setup();
    const { workspace, sessions } = t.carapace.services;
    const p = project.id;
    const a = workspace.createSession(p);
    const reachable = async () => {
      expect(await call('sessions.get', { sessionId: a.id })).toMatchObject({ ok: true });
      expect(ids(sessions.list(p))).toContain(a.id);
    };

    // Found before anything is let go: a session of that id is already archived.
    mkdirSync(path.join(projectDir, 'archived'), { recursive: true });
    writeFileSync(path.join(projectDir, 'archived', `${a.id}.jsonl`), '');
    expect(await call('sessions.archive', { projectId: p, sessionId: a.id })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT' },
    });
    await reachable();
    rmSync(path.join(projectDir, 'archived', `${a.id}.jsonl`));

    // Found only by the move itself: a folder cannot be renamed onto a (dangling) link.
    mkdirSync(path.join(projectDir, a.id));
    symlinkSync(path.join(projectDir, 'nowhere'), path.join(projectDir, 'archived', a.id));
    expect(await call('sessions.archive', { projectId: p, sessionId: a.id })).toMatchObject({
      ok: false,
      error: { code: 'IO_ERROR' },
    });
    await reachable();
    mkdirSync(trashDir, { recursive: true });
    symlinkSync(path.join(projectDir, 'nowhere'), path.join(trashDir, a.id));
    expect(await call('sessions.delete', { projectId: p, sessionId: a.id })).toMatchObject({
      ok: false,
      error: { code: 'IO_ERROR' },
    });
    await reachable();
    expect(existsSync(path.join(projectDir, `${a.id}.jsonl`))).toBe(true);
    expect(await call('sessions.send', { sessionId: a.id, text: 'still here' })).toMatchObject({ ok: true });
  });

  it('never moves or erases anything outside its folders (hostile ids, links)', async () => {
    const { t, project, call, projectDir, trashDir } = await setup();
    const { workspace } = t.carapace.services;
    const outside = tempDir('carapace-outside-');
    writeFileSync(path.join(outside, 'precious.jsonl'), 'keep me\n');
    writeFileSync(path.join(outside, 'precious.txt'), 'keep me\n');
    const p = project.id;

    // Ids that walk out of the folder, or are not ids at all.
    const escape = path.relative(projectDir, path.join(outside, 'precious'));
    for (const sessionId of [escape, '../precious', '..', '.', 'a/b', '..\\x', '.hidden']) {
      for (const channel of ['sessions.archive', 'sessions.delete', 'sessions.unarchive'] as const) {
        const r = await call(channel, { projectId: p, sessionId });
        expect(r, `${channel} ${sessionId}`).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      }
      expect(await call('sessions.deleteForever', { projectId: p, sessionId })).toMatchObject({ ok: false });
    }
    // A project id that is not a known project never names a folder.
    expect(await call('sessions.delete', { projectId: '../../..', sessionId: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });

    // A session whose folder is a link to somewhere else is refused whole.
    const linked = workspace.createSession(p);
    symlinkSync(outside, path.join(projectDir, linked.id));
    for (const channel of ['sessions.archive', 'sessions.delete'] as const)
      expect(await call(channel, { projectId: p, sessionId: linked.id })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
    // So is a transcript that is a link.
    const fakeId = '00000000-0000-4000-8000-000000000000';
    symlinkSync(path.join(outside, 'precious.jsonl'), path.join(projectDir, `${fakeId}.jsonl`));
    expect(await call('sessions.delete', { projectId: p, sessionId: fakeId })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });

    // An archive folder that is a link would carry sessions out: refused.
    const plain = workspace.createSession(p);
    symlinkSync(outside, path.join(projectDir, 'archived'));
    expect(await call('sessions.archive', { projectId: p, sessionId: plain.id })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(existsSync(path.join(projectDir, `${plain.id}.jsonl`))).toBe(true);

    // A link planted inside a trashed session's folder is erased as a link; its target stays.
    const inner = workspace.createSession(p);
    expect(await call('sessions.delete', { projectId: p, sessionId: inner.id })).toMatchObject({ ok: true });
    mkdirSync(path.join(trashDir, inner.id), { recursive: true });
    symlinkSync(outside, path.join(trashDir, inner.id, 'escape'));
    expect(await call('sessions.deleteForever', { projectId: p, sessionId: inner.id })).toMatchObject({
      ok: true,
    });
    expect(readdirSync(outside).sort()).toEqual(['precious.jsonl', 'precious.txt']);
    expect(readFileSync(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep me\n');

    // A trash folder that is a link is refused too.
    const last = workspace.createSession(p);
    renameSync(trashDir, `${trashDir}-moved`);
    symlinkSync(outside, trashDir);
    expect(await call('sessions.delete', { projectId: p, sessionId: last.id })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(readdirSync(outside).sort()).toEqual(['precious.jsonl', 'precious.txt']);
  });
});
