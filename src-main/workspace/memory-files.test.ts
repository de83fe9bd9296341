import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors';
import { tempDir } from '../test-support/temp';
import { versionOf } from './memory-disk';
import { MemoryFiles, type FileAddress } from './memory-files';
import type { MemoryChange } from './memory-watcher';

const VALID = `---
name: tabs
description: The person prefers tabs
type: feedback
---

Use tabs.

**Why:** they said so.
**How to apply:** in every file.
`;

function setup(opts: { now?: number } = {}) {
  const base = tempDir('carapace-memory-');
  const project = path.join(base, 'work', 'project');
  const home = path.join(base, 'home');
  const carapaceHome = path.join(base, 'carapace');
  const memoryDir = path.join(carapaceHome, 'projects', 'p', 'memory');
  const managed = path.join(base, 'etc', 'claude-code');
  for (const d of [project, home, carapaceHome, memoryDir, managed]) mkdirSync(d, { recursive: true });
  const changes: MemoryChange[] = [];
  const files = new MemoryFiles({
    projectRoot: (id) => {
      if (id !== 'p') throw new AppError('NOT_FOUND', 'no such project');
      return project;
    },
    locations: (projectRoot) => ({
      projectRoot,
      homeDir: home,
      carapaceHome,
      memoryDir,
      managedDirs: [managed],
    }),
    onChange: (_id, change) => changes.push(change),
    ...(opts.now === undefined ? {} : { now: () => opts.now ?? 0 }),
  });
  return { base, project, home, carapaceHome, memoryDir, managed, files, changes };
}

const mem = (name: string): FileAddress => ({ projectId: 'p', scope: 'auto-memory', root: 0, name });

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('MemoryFiles: hostile names', () => {
  it('refuses a symlink that leads out of the scope root, for reading and for writing', async () => {
    const s = setup();
    const secret = path.join(s.base, 'secret.md');
    writeFileSync(secret, 'top secret');
    symlinkSync(secret, path.join(s.memoryDir, 'link.md'));
    mkdirSync(path.join(s.base, 'outside'));
    symlinkSync(path.join(s.base, 'outside'), path.join(s.memoryDir, 'dir'));
    expect(await codeOf(s.files.read(mem('link.md')))).toBe('INVALID_INPUT');
    expect(await codeOf(s.files.write({ ...mem('link.md'), text: VALID, baseVersion: null }))).toBe(
      'INVALID_INPUT',
    );
    expect(await codeOf(s.files.create({ ...mem('dir/new.md'), type: 'user' }))).toBe('INVALID_INPUT');
    expect(readFileSync(secret, 'utf8')).toBe('top secret');
    expect(readdirSync(path.join(s.base, 'outside'))).toEqual([]);
    // Nor is it listed: the browser could not open it.
    const tree = await s.files.tree('p');
    expect(tree.scopes.find((x) => x.scope === 'auto-memory')?.files).toEqual([]);
  });

  it('refuses ../ names, absolute names, NUL, "~", backslashes, non-Markdown and names into .git', async () => {
    const s = setup();
    mkdirSync(path.join(s.project, '.git'));
    const bad = [
      '../x.md',
      'a/../../x.md',
      '..',
      '/etc/passwd.md',
      path.join(s.memoryDir, 'abs.md'),
      'C:\\x.md',
      'x\0.md',
      '~/x.md',
      'a\\..\\x.md',
      'notes.txt',
      '.md',
      '.git/config.md',
      'sub/.GIT/x.md',
      '.trash/123-abcdef12/x.md',
      'a//b.md',
      './a.md',
    ];
    for (const name of bad) {
      expect(await codeOf(s.files.read(mem(name))), name).toBe('INVALID_INPUT');
      expect(await codeOf(s.files.write({ ...mem(name), text: VALID, baseVersion: null })), name).toBe(
        'INVALID_INPUT',
      );
    }
    // Project scope: only CLAUDE.md and .claude/CLAUDE.md of a folder are its files.
    const project = { projectId: 'p', scope: 'project' as const, name: 'src/evil.md' };
    const rootIndex = (await s.files.tree('p')).scopes.find((x) => x.scope === 'project')?.roots.length ?? 0;
    expect(
      await codeOf(s.files.write({ ...project, root: rootIndex - 1, text: 'x', baseVersion: null })),
    ).toBe('INVALID_INPUT');
    expect(await codeOf(s.files.read({ ...mem('x.md'), root: 7 }))).toBe('INVALID_INPUT');
    expect(await codeOf(s.files.read({ ...mem('x.md'), projectId: 'nope' }))).toBe('NOT_FOUND');
  });

  it("refuses a CLAUDE.md that is a link into the repository's .git folder", async () => {
    const s = setup();
    mkdirSync(path.join(s.project, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(s.project, '.git', 'hooks', 'pre-commit.md'), 'hook');
    symlinkSync(path.join(s.project, '.git', 'hooks', 'pre-commit.md'), path.join(s.project, 'CLAUDE.md'));
    const roots = (await s.files.tree('p')).scopes.find((x) => x.scope === 'project')?.roots ?? [];
    const ref = { projectId: 'p', scope: 'project' as const, root: roots.length - 1, name: 'CLAUDE.md' };
    expect(await codeOf(s.files.read(ref))).toBe('INVALID_INPUT');
    expect(await codeOf(s.files.write({ ...ref, text: 'x', baseVersion: versionOf('hook') }))).toBe(
      'INVALID_INPUT',
    );
    expect(readFileSync(path.join(s.project, '.git', 'hooks', 'pre-commit.md'), 'utf8')).toBe('hook');
  });

  it('keeps managed files read-only', async () => {
    const s = setup();
    writeFileSync(path.join(s.managed, 'CLAUDE.md'), 'policy');
    const ref = { projectId: 'p', scope: 'managed' as const, root: 0, name: 'CLAUDE.md' };
    expect((await s.files.read(ref)).writable).toBe(false);
    expect(await codeOf(s.files.write({ ...ref, text: 'x', baseVersion: versionOf('policy') }))).toBe(
      'FORBIDDEN',
    );
    expect(await codeOf(s.files.delete(ref))).toBe('FORBIDDEN');
    expect(readFileSync(path.join(s.managed, 'CLAUDE.md'), 'utf8')).toBe('policy');
  });

  it('refuses a memory whose frontmatter is invalid, naming each field', async () => {
    const s = setup();
    const bad = VALID.replace('**Why:** they said so.\n', '').replace('The person prefers tabs', '""');
    try {
      await s.files.write({ ...mem('tabs.md'), text: bad, baseVersion: null });
      expect.fail('should refuse');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('INVALID_INPUT');
      const fields = (error as AppError).details?.map((d) => d.split(':')[0]);
      expect(fields).toEqual(expect.arrayContaining(['description', 'why']));
    }
    expect(existsSync(path.join(s.memoryDir, 'tabs.md'))).toBe(false);
    // MEMORY.md is an index, not a memory: no frontmatter needed.
    const saved = await s.files.write({
      ...mem('MEMORY.md'),
      text: '- [tabs](tabs.md)\n',
      baseVersion: null,
    });
    expect(saved.kind).toBe('saved');
  });
});

describe('MemoryFiles: versions and conflicts', () => {
  it('answers a write based on an old version with a conflict carrying the disk text, and writes nothing', async () => {
    const s = setup();
    const file = path.join(s.memoryDir, 'tabs.md');
    writeFileSync(file, VALID);
    const opened = await s.files.read(mem('tabs.md'));
    // Someone (the model, another editor) changes the file while the browser has unsaved edits.
    const theirs = VALID.replace('Use tabs.', 'Use tabs, width 4.');
    writeFileSync(file, theirs);
    const mine = VALID.replace('Use tabs.', 'Use tabs everywhere.');
    const result = await s.files.write({ ...mem('tabs.md'), text: mine, baseVersion: opened.version });
    expect(result).toMatchObject({ kind: 'conflict', diskText: theirs, diskVersion: versionOf(theirs) });
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    // Saving on top of what is now on disk works.
    const again = await s.files.write({ ...mem('tabs.md'), text: mine, baseVersion: versionOf(theirs) });
    expect(again).toMatchObject({ kind: 'saved', version: versionOf(mine) });
    expect(readFileSync(file, 'utf8')).toBe(mine);
  });

  it('lets exactly one of several racing saves based on one version through; the others get its text back', async () => {
    const s = setup();
    const file = path.join(s.memoryDir, 'tabs.md');
    writeFileSync(file, VALID);
    const { version } = await s.files.read(mem('tabs.md'));
    const texts = [1, 2, 3].map((n) => VALID.replace('Use tabs.', `Use tabs (window ${n}).`));
    const results = await Promise.all(
      texts.map((text) => s.files.write({ ...mem('tabs.md'), text, baseVersion: version })),
    );
    const saved = results.flatMap((r, i) => (r.kind === 'saved' ? [texts[i]] : []));
    expect(saved).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe(saved[0]);
    for (const r of results) if (r.kind === 'conflict') expect(r.diskText).toBe(saved[0]);
  });

  it('treats a file created or deleted meanwhile as a conflict', async () => {
    const s = setup();
    const file = path.join(s.memoryDir, 'tabs.md');
    writeFileSync(file, VALID);
    const created = await s.files.write({
      ...mem('tabs.md'),
      text: VALID.replace('tabs.', 'x.'),
      baseVersion: null,
    });
    expect(created).toMatchObject({ kind: 'conflict', diskText: VALID });
    const opened = await s.files.read(mem('tabs.md'));
    await s.files.delete(mem('tabs.md'));
    const gone = await s.files.write({ ...mem('tabs.md'), text: VALID, baseVersion: opened.version });
    expect(gone).toMatchObject({ kind: 'conflict', diskText: null, diskVersion: null });
    expect(existsSync(file)).toBe(false);
  });

  it('writes atomically: no temp file is left and the mode is kept', async () => {
    const s = setup();
    const saved = await s.files.write({ ...mem('tabs.md'), text: VALID, baseVersion: null });
    expect(saved.kind).toBe('saved');
    expect(readdirSync(s.memoryDir)).toEqual(['tabs.md']);
  });
});

describe('MemoryFiles: tree, create, rename, trash', () => {
  it('lists each scope, MEMORY.md first, with type, description and age', async () => {
    const day = 86_400_000;
    const now = Date.UTC(2026, 0, 10);
    const s = setup({ now });
    writeFileSync(path.join(s.memoryDir, 'a.md'), VALID);
    writeFileSync(path.join(s.memoryDir, 'MEMORY.md'), '- [a](a.md)\n');
    writeFileSync(path.join(s.memoryDir, 'broken.md'), 'no frontmatter');
    mkdirSync(path.join(s.memoryDir, 'team'));
    writeFileSync(path.join(s.memoryDir, 'team', 'shared.md'), VALID);
    writeFileSync(path.join(s.project, 'CLAUDE.md'), '# project');
    writeFileSync(path.join(s.project, 'CLAUDE.local.md'), '# local');
    utimesSync(path.join(s.memoryDir, 'a.md'), (now - 3 * day) / 1000, (now - 3 * day) / 1000);
    const tree = await s.files.tree('p');
    expect(tree.scopes.map((x) => x.scope)).toEqual([
      'managed',
      'user',
      'project',
      'local',
      'rules',
      'auto-memory',
      'team-memory',
    ]);
    const auto = tree.scopes.find((x) => x.scope === 'auto-memory');
    expect(auto?.files.map((f) => f.name)).toEqual(['MEMORY.md', 'a.md', 'broken.md']);
    expect(auto?.files[1]).toMatchObject({
      type: 'feedback',
      description: 'The person prefers tabs',
      ageDays: 3,
    });
    expect(auto?.files[2]).toMatchObject({ invalid: true });
    expect(tree.scopes.find((x) => x.scope === 'team-memory')?.files.map((f) => f.name)).toEqual([
      'shared.md',
    ]);
    const project = tree.scopes.find((x) => x.scope === 'project');
    expect(project?.roots.at(-1)?.path).toBe(s.project);
    expect(project?.files).toEqual([
      expect.objectContaining({ name: 'CLAUDE.md', root: (project?.roots.length ?? 0) - 1 }),
    ]);
  });

  it('creates from a template per type that passes validation, and refuses to create over a file', async () => {
    const s = setup();
    for (const type of ['user', 'feedback', 'project', 'reference'] as const) {
      const made = await s.files.create({ ...mem(`${type}.md`), type });
      expect(made.text).toContain(`type: ${type}`);
      const back = await s.files.write({ ...mem(`${type}.md`), text: made.text, baseVersion: made.version });
      expect(back.kind).toBe('saved');
    }
    expect(readFileSync(path.join(s.memoryDir, 'feedback.md'), 'utf8')).toContain('**How to apply:**');
    expect(await codeOf(s.files.create({ ...mem('user.md'), type: 'user' }))).toBe('CONFLICT');
  });

  it('renames inside the root and refuses a taken or hostile new name', async () => {
    const s = setup();
    writeFileSync(path.join(s.memoryDir, 'a.md'), VALID);
    writeFileSync(path.join(s.memoryDir, 'b.md'), VALID);
    expect(await codeOf(s.files.rename({ ...mem('a.md'), newName: 'b.md' }))).toBe('CONFLICT');
    expect(await codeOf(s.files.rename({ ...mem('a.md'), newName: '../a.md' }))).toBe('INVALID_INPUT');
    const info = await s.files.rename({ ...mem('a.md'), newName: 'topics/c.md' });
    expect(info.name).toBe('topics/c.md');
    expect(readFileSync(path.join(s.memoryDir, 'topics', 'c.md'), 'utf8')).toBe(VALID);
  });

  it('deletes to the trash and restores, refusing to restore over a new file of that name', async () => {
    const s = setup();
    writeFileSync(path.join(s.memoryDir, 'a.md'), VALID);
    const entry = await s.files.delete(mem('a.md'));
    expect(existsSync(path.join(s.memoryDir, 'a.md'))).toBe(false);
    expect(existsSync(path.join(s.memoryDir, '.trash', entry.id, 'a.md'))).toBe(true);
    expect(await s.files.trash({ projectId: 'p', scope: 'auto-memory', root: 0 })).toEqual([entry]);
    // The trash is not a memory: not listed.
    expect((await s.files.tree('p')).scopes.find((x) => x.scope === 'auto-memory')?.files).toEqual([]);
    writeFileSync(path.join(s.memoryDir, 'a.md'), 'new');
    expect(
      await codeOf(s.files.restore({ projectId: 'p', scope: 'auto-memory', root: 0, id: entry.id })),
    ).toBe('CONFLICT');
    expect(readFileSync(path.join(s.memoryDir, 'a.md'), 'utf8')).toBe('new');
    await s.files.delete(mem('a.md'));
    const back = await s.files.restore({ projectId: 'p', scope: 'auto-memory', root: 0, id: entry.id });
    expect(back.name).toBe('a.md');
    expect(readFileSync(path.join(s.memoryDir, 'a.md'), 'utf8')).toBe(VALID);
    expect(
      (await s.files.trash({ projectId: 'p', scope: 'auto-memory', root: 0 })).map((e) => e.name),
    ).toEqual(['a.md']);
    expect(
      await codeOf(s.files.restore({ projectId: 'p', scope: 'auto-memory', root: 0, id: '../../x' })),
    ).toBe('INVALID_INPUT');
  });

  it('refuses to delete a file that changed since it was opened', async () => {
    const s = setup();
    writeFileSync(path.join(s.memoryDir, 'a.md'), VALID);
    const opened = await s.files.read(mem('a.md'));
    writeFileSync(path.join(s.memoryDir, 'a.md'), `${VALID}more\n`);
    expect(await codeOf(s.files.delete({ ...mem('a.md'), baseVersion: opened.version }))).toBe('CONFLICT');
    expect(existsSync(path.join(s.memoryDir, 'a.md'))).toBe(true);
  });

  it('keeps a trashed rule out of the rules folder, where it would still load', async () => {
    const s = setup();
    mkdirSync(path.join(s.project, '.claude', 'rules'), { recursive: true });
    writeFileSync(path.join(s.project, '.claude', 'rules', 'style.md'), '# style');
    await s.files.delete({ projectId: 'p', scope: 'rules', root: 0, name: 'style.md' });
    expect(readdirSync(path.join(s.project, '.claude', 'rules'))).toEqual([]);
  });
});

describe('MemoryFiles: watching', () => {
  it('reports a change made on disk by another program, once per burst, and stops when unwatched', async () => {
    const s = setup();
    await s.files.watch('p');
    const file = path.join(s.memoryDir, 'a.md');
    writeFileSync(file, VALID);
    writeFileSync(file, `${VALID}x\n`);
    await until(() => s.changes.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.changes).toEqual([{ scope: 'auto-memory', root: 0, name: 'a.md' }]);
    writeFileSync(path.join(s.project, 'CLAUDE.md'), '# project');
    await until(() => s.changes.some((c) => c.scope === 'project'));
    expect(s.changes.at(-1)).toMatchObject({ scope: 'project', name: 'CLAUDE.md' });
    s.files.unwatch('p');
    const count = s.changes.length;
    writeFileSync(file, VALID);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.changes.length).toBe(count);
  });

  it('an unwatch that arrives while the memory folder is being made leaves no watcher behind', async () => {
    const s = setup();
    const watching = s.files.watch('p'); // the browser opens...
    expect(s.files.unwatch('p')).toBe(false); // ...and closes before the main process has finished
    await watching;
    expect(s.files.isWatching('p')).toBe(false);
    writeFileSync(path.join(s.memoryDir, 'a.md'), VALID);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.changes).toEqual([]);
  });

  it('two watches started together are both counted: one unwatch keeps the project watched', async () => {
    const s = setup();
    const first = s.files.watch('p');
    const second = s.files.watch('p');
    expect(s.files.unwatch('p')).toBe(true);
    await Promise.all([first, second]);
    expect(s.files.isWatching('p')).toBe(true);
    writeFileSync(path.join(s.memoryDir, 'a.md'), VALID);
    await until(() => s.changes.length > 0);
    expect(s.files.unwatch('p')).toBe(false);
    expect(s.files.isWatching('p')).toBe(false);
  });
});

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
