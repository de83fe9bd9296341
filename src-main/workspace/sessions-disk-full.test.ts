import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { createCarapace, type Carapace } from '../compose';
import { errnoCode } from '../platform/errors';
import { silentLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { testCarapace } from '../test-support/carapace';
import { tempDir } from '../test-support/temp';
import { wireValue } from '../test-support/wait';

/** A real 64 KB disk (tmpfs) to be the data folder, or why one cannot be had here. */
function mountTinyDisk(): { dir: string } | { skip: string } {
  if (process.platform !== 'linux') return { skip: 'a tmpfs mount needs Linux' };
  const dir = mkdtempSync(path.join(tmpdir(), 'carapace-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { skip: `mount is not permitted here (${stderr || (error as Error).message})` };
  }
}

/** Writes until the disk says ENOSPC. */
function fill(dir: string): void {
  const fd = openSync(path.join(dir, 'filler'), 'w');
  try {
    for (;;) writeSync(fd, Buffer.alloc(1024, 0x78));
  } catch (error) {
    if (errnoCode(error) !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

const value = wireValue;

it('on a full disk, sessions.create fails with a typed error and leaves no trace; saved sessions still open', async (ctx) => {
  const disk = mountTinyDisk();
  if ('skip' in disk) {
    console.log(`[skipped] full-disk test: ${disk.skip}`);
    ctx.skip();
    return;
  }
  const home = disk.dir;
  const project = tempDir('carapace-project-');
  // The scripted API of a composed test app (closed when the test ends); this test's own apps use it.
  const { api, userHome } = await testCarapace();
  const running: Carapace[] = [];
  const launch = () => {
    const carapace = createCarapace({
      env: { CARAPACE_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.url },
      secrets: new MemorySecretStore(),
      logger: silentLogger,
      version: '0.0.0-test',
      homeDir: userHome,
    });
    running.push(carapace);
    const call = (channel: string, input: unknown) =>
      carapace.router.dispatch(channel, input, { transport: 'websocket' });
    return { carapace, call };
  };
  try {
    const { call } = launch();
    const opened = value(await call('projects.open', { path: project })) as { project: { id: string } };
    const projectId = opened.project.id;
    // Control: with free space, a session is created and saved.
    const saved = value(await call('sessions.create', { projectId })) as { id: string };
    const before = filesUnder(home).sort();

    fill(home);
    const failed = await call('sessions.create', { projectId });
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'IO_ERROR', retryable: true, details: ['ENOSPC'] },
    });
    expect(failed.ok ? '' : failed.error.message).toMatch(/disk is full/);
    // No ghost: not listed, no transcript, no stray temp file; exactly the files there were.
    const listed = value(await call('sessions.list', { projectId })) as { id: string }[];
    expect(listed.map((s) => s.id)).toEqual([saved.id]);
    expect(filesUnder(home).sort()).toEqual([...before, 'filler'].sort());
    expect(filesUnder(home).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // A fresh start on the full disk still opens the project and shows what was saved.
    const fresh = launch();
    const reopened = value(await fresh.call('projects.open', { path: project })) as {
      sessions: { id: string }[];
    };
    expect(reopened.sessions.map((s) => s.id)).toEqual([saved.id]);
    expect(await fresh.call('sessions.get', { sessionId: saved.id })).toMatchObject({ ok: true });
    expect(filesUnder(home).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // Control: once there is room again, create works.
    rmSync(path.join(home, 'filler'));
    const created = value(await fresh.call('sessions.create', { projectId })) as { id: string };
    const all = value(await fresh.call('sessions.list', { projectId })) as { id: string }[];
    expect(all.map((s) => s.id).sort()).toEqual([saved.id, created.id].sort());
  } finally {
    for (const carapace of running) await carapace.shutdown();
    // Lazy, so that a file left open by a failing run cannot keep the mount (or hide the failure).
    execFileSync('umount', ['-l', home]);
    rmSync(home, { recursive: true, force: true });
  }
});
