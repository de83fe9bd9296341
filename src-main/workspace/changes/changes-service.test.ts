import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGit } from '../../test-support/git';
import { tempDir as makeTempDir } from '../../test-support/temp';
import { ChangePath } from '@shared/ipc/contract/changes';
import { ChangesService, sessionTargetFrom, type SessionTarget } from './changes-service';

const tempDir = () => makeTempDir('carapace-changes-');
const run = runGit;

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const FAR = Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';

function repo(): string {
  const d = tempDir();
  run(d, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(d, 'a.txt'), TEN);
  writeFileSync(path.join(d, 'far.txt'), FAR);
  writeFileSync(path.join(d, 'old-name.txt'), 'renamed content\nstays the same\nfor git to see it\n');
  run(d, 'add', '.');
  run(d, 'commit', '-q', '-m', 'first');
  return d;
}

function service(target: SessionTarget, openPath: ((p: string) => Promise<string>) | null = null) {
  return new ChangesService({ target: () => target, openPath });
}

describe('ChangesService against the uncommitted changes', () => {
  it('lists modified, added, deleted, renamed, untracked, binary and symlinked files with counts', async () => {
    const d = repo();
    writeFileSync(path.join(d, 'a.txt'), TEN.replace('line 3\n', 'line three\n'));
    run(d, 'mv', 'old-name.txt', 'new-name.txt');
    writeFileSync(path.join(d, 'new.ts'), 'export const x = 1;\nexport const y = 2;\n');
    writeFileSync(path.join(d, 'blob.bin'), Buffer.from([1, 0, 2, 0, 3]));
    const outside = tempDir();
    writeFileSync(path.join(outside, 'secret.txt'), 'SECRET\n');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(d, 'link.txt'));
    rmSync(path.join(d, 'far.txt'));
    const set = await service({ root: d, worktree: null }).list('s1');
    expect(set.source).toBe('uncommitted');
    const by = Object.fromEntries(set.files.map((f) => [f.path, f]));
    expect(by['a.txt']).toMatchObject({ status: 'modified', additions: 1, deletions: 1, binary: false });
    expect(by['far.txt']).toMatchObject({ status: 'deleted', deletions: 40 });
    expect(by['new-name.txt']).toMatchObject({ status: 'renamed', oldPath: 'old-name.txt' });
    expect(by['new.ts']).toMatchObject({ status: 'untracked', additions: 2 });
    expect(by['blob.bin']).toMatchObject({ binary: true, additions: null });
    expect(by['link.txt']).toMatchObject({ symlink: true, additions: 1 });
    // The link is shown as its target, never followed: the secret's text is nowhere in its diff.
    const link = await service({ root: d, worktree: null }).diff('s1', 'link.txt');
    expect(link.symlink).toBe(true);
    expect(JSON.stringify(link)).not.toContain('SECRET');
    expect(link.hunks[0]?.lines[0]?.text).toBe(path.join(outside, 'secret.txt'));
    const bin = await service({ root: d, worktree: null }).diff('s1', 'blob.bin');
    expect(bin).toMatchObject({ binary: true, hunks: [] });
  });

  it('numbers the lines of a diff on both sides', async () => {
    const d = repo();
    writeFileSync(path.join(d, 'a.txt'), TEN.replace('line 3\n', 'line three\nline 3.5\n'));
    const diff = await service({ root: d, worktree: null }).diff('s1', 'a.txt');
    const lines = diff.hunks.flatMap((h) => h.lines);
    expect(lines.find((l) => l.kind === 'del')).toEqual({
      kind: 'del',
      oldLine: 3,
      newLine: null,
      text: 'line 3',
    });
    expect(lines.filter((l) => l.kind === 'add')).toEqual([
      { kind: 'add', oldLine: null, newLine: 3, text: 'line three' },
      { kind: 'add', oldLine: null, newLine: 4, text: 'line 3.5' },
    ]);
    expect(lines.find((l) => l.text === 'line 6')).toMatchObject({ oldLine: 6, newLine: 7 });
  });

  it('refuses paths with "..", a leading "-", absolute ones, and any file git does not list as changed', async () => {
    for (const bad of ['../etc/passwd', 'a/../../x', '-rf', '--output=/tmp/x', '/etc/passwd', 'a\0b'])
      expect(ChangePath.safeParse(bad).success, bad).toBe(false);
    const d = repo();
    const s = service({ root: d, worktree: null });
    await expect(s.diff('s1', 'a.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.stageFile('s1', '*')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('takes hostile file names as they are: a newline, a glob, pathspec magic, an option-like name in a folder', async () => {
    const d = repo();
    const names = ['new\nline.txt', '*', ':(glob)x', 'sub/-rf', 'ünï code.txt'];
    mkdirSync(path.join(d, 'sub'));
    for (const n of names) writeFileSync(path.join(d, n), `${n}\n`);
    run(d, 'add', '-A');
    run(d, 'commit', '-q', '-m', 'names');
    for (const n of names) writeFileSync(path.join(d, n), `${n}\nchanged\n`);
    const s = service({ root: d, worktree: null });
    const listed = (await s.list('s1')).files.map((f) => f.path);
    expect(listed.sort()).toEqual([...names].sort());
    // `*` is that one file, not every file (pathspecs are literal).
    const star = await s.diff('s1', '*');
    expect(star.hunks.flatMap((h) => h.lines).map((l) => l.text)).toEqual(['*', 'changed']);
    await s.stageFile('s1', '*');
    expect(run(d, 'diff', '--cached', '--name-only', '-z').split('\0').filter(Boolean)).toEqual(['*']);
    const nl = await s.diff('s1', 'new\nline.txt');
    expect(nl.hunks[0]?.lines.at(-1)).toMatchObject({ kind: 'add', text: 'changed' });
    await s.stageHunk('s1', 'sub/-rf', 0, (await s.diff('s1', 'sub/-rf')).hunks[0]?.header ?? '');
    expect(run(d, 'diff', '--cached', '--name-only')).toContain('sub/-rf');
  });

  it('stages one hunk, leaving the other unstaged, and discards a hunk from the file and the index', async () => {
    const d = repo();
    writeFileSync(
      path.join(d, 'far.txt'),
      FAR.replace('row 2\n', 'row two\n').replace('row 38\n', 'row thirty-eight\n'),
    );
    const s = service({ root: d, worktree: null });
    const diff = await s.diff('s1', 'far.txt');
    expect(diff.hunks).toHaveLength(2);
    const [first, second] = diff.hunks;
    await s.stageHunk('s1', 'far.txt', 0, first?.header ?? '');
    expect(run(d, 'diff', '--cached')).toContain('+row two');
    expect(run(d, 'diff', '--cached')).not.toContain('thirty-eight');
    // A stale header (the diff changed since it was shown) is refused, not applied to another hunk.
    await expect(s.discardHunk('s1', 'far.txt', 1, '@@ -1,1 +1,1 @@')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await s.discardHunk('s1', 'far.txt', 1, second?.header ?? '');
    expect(readFileSync(path.join(d, 'far.txt'), 'utf8')).toBe(FAR.replace('row 2\n', 'row two\n'));
    // Discarding the staged hunk takes it out of the index too.
    const again = await s.diff('s1', 'far.txt');
    await s.discardHunk('s1', 'far.txt', 0, again.hunks[0]?.header ?? '');
    expect(readFileSync(path.join(d, 'far.txt'), 'utf8')).toBe(FAR);
    expect(run(d, 'diff', '--cached')).toBe('');
    expect((await s.list('s1')).files).toEqual([]);
  });

  it('commits everything with the suggested message when nothing is staged, without running hooks', async () => {
    const d = repo();
    writeFileSync(path.join(d, 'a.txt'), TEN + 'line 11\n');
    writeFileSync(path.join(d, 'b.txt'), 'new\n');
    mkdirSync(path.join(d, '.git', 'hooks'), { recursive: true });
    writeFileSync(
      path.join(d, '.git', 'hooks', 'pre-commit'),
      `#!/bin/sh\ntouch "${path.join(d, 'HOOK-RAN')}"\n`,
      { mode: 0o755 },
    );
    const s = service({ root: d, worktree: null });
    const { message } = await s.suggestMessage('s1');
    expect(message).toMatch(/^Update 2 files\n\n- M a\.txt \(\+1 -0\)\n- A b\.txt \(\+1 -0\)\n$/);
    const r = await s.commit('s1', message);
    expect(r.files).toBe(2);
    expect(run(d, 'log', '-1', '--format=%B').trim()).toBe(message.trim());
    expect(run(d, 'rev-parse', 'HEAD').trim()).toBe(r.commit);
    expect(existsSync(path.join(d, 'HOOK-RAN'))).toBe(false);
    await expect(s.commit('s1', 'again')).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it("does not run the repository's diff or filter programs", async () => {
    const d = repo();
    const mark = path.join(d, 'RAN');
    run(d, 'config', 'diff.external', `touch ${mark}`);
    run(d, 'config', 'filter.evil.clean', `sh -c 'touch ${mark}; cat'`);
    run(d, 'config', 'diff.evil.textconv', `sh -c 'touch ${mark}; cat'`);
    writeFileSync(path.join(d, '.gitattributes'), '*.txt filter=evil diff=evil\n');
    writeFileSync(path.join(d, 'a.txt'), TEN + 'more\n');
    const s = service({ root: d, worktree: null });
    await s.list('s1');
    const diff = await s.diff('s1', 'a.txt');
    expect(diff.hunks.flatMap((h) => h.lines).some((l) => l.text === 'more')).toBe(true);
    await s.stageFile('s1', 'a.txt');
    expect(existsSync(mark)).toBe(false);
  });

  it('cuts a 60,000-line diff at the view limit and says so', async () => {
    const d = repo();
    writeFileSync(
      path.join(d, 'huge.txt'),
      Array.from({ length: 60_000 }, (_, i) => `n${i}`).join('\n') + '\n',
    );
    run(d, 'add', 'huge.txt');
    const diff = await service({ root: d, worktree: null }).diff('s1', 'huge.txt');
    expect(diff.truncated).toBe(true);
    expect(diff.hunks.flatMap((h) => h.lines)).toHaveLength(50_000);
  });

  it('opens a file only in the desktop app, and never one whose link leads out of the project', async () => {
    const d = repo();
    writeFileSync(path.join(d, 'a.txt'), TEN + 'x\n');
    const outside = tempDir();
    writeFileSync(path.join(outside, 'o.txt'), 'o\n');
    symlinkSync(path.join(outside, 'o.txt'), path.join(d, 'out.txt'));
    await expect(service({ root: d, worktree: null }).openInEditor('s1', 'a.txt')).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('not available in the browser'),
    });
    const opened: string[] = [];
    const s = service({ root: d, worktree: null }, (p) => {
      opened.push(p);
      return Promise.resolve('');
    });
    await s.openInEditor('s1', 'a.txt');
    await expect(s.openInEditor('s1', 'out.txt')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(opened.map((p) => path.basename(p))).toEqual(['a.txt']);
  });

  it('says a folder outside git has no changes', async () => {
    const d = tempDir();
    expect(await service({ root: d, worktree: null }).list('s1')).toMatchObject({
      source: 'not-git',
      files: [],
    });
  });
});

describe('ChangesService in a session worktree', () => {
  it("shows the branch's committed and uncommitted work against where it left its base", async () => {
    const d = repo();
    const wt = path.join(tempDir(), 'wt');
    run(d, 'worktree', 'add', '-q', '-b', 'carapace/w1', wt, 'main');
    writeFileSync(path.join(wt, 'a.txt'), TEN + 'committed\n');
    run(wt, 'commit', '-q', '-am', 'on the branch');
    writeFileSync(path.join(wt, 'far.txt'), FAR + 'uncommitted\n');
    // The base moving on afterwards does not show as changes of the session.
    writeFileSync(path.join(d, 'old-name.txt'), 'changed on main\n');
    run(d, 'commit', '-q', '-am', 'on main');
    const target = sessionTargetFrom(d, {
      worktree: { path: wt, prefix: '', branch: 'carapace/w1', base: 'main' },
    });
    const set = await service(target).list('s1');
    expect(set).toMatchObject({ source: 'worktree', base: 'main', branch: 'carapace/w1' });
    expect(set.files.map((f) => f.path)).toEqual(['a.txt', 'far.txt']);
    expect(sessionTargetFrom(d, { worktree: { path: 3 } }).worktree).toBeNull();
  });
});
