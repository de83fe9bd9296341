import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scopeDefs, type ScopeDef } from './memory-scopes';
import { MAX_MEMORY_WATCHES, MemoryWatcher, type MemoryChange } from './memory-watcher';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'memory-watch-'));
  dirs.push(dir);
  return dir;
}

/** `count` real folders below `dir`, a few levels deep. */
function manyFolders(dir: string, count: number): void {
  for (let i = 0; i < count; i++) mkdirSync(path.join(dir, `g${i % 10}`, `f${i}`), { recursive: true });
}

function treeScope(dir: string): ScopeDef[] {
  return [
    {
      scope: 'auto-memory',
      label: 'Auto-memory',
      roots: [
        { dir, label: dir, writable: true, trashDir: null, names: 'tree', excludeDirs: [], memoryDir: false },
      ],
    },
  ];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(seen: MemoryChange[], name: string, count: number): Promise<void> {
  for (let i = 0; i < 60 && seen.filter((c) => c.name === name).length < count; i++) await sleep(50);
}

describe('MemoryWatcher', () => {
  // Node 20's recursive fs.watch on Linux lost a file once it was replaced by rename: the browser's
  // own atomic save made every later outside change to that file invisible.
  it('still sees a file after it was replaced by an atomic write, and files in a folder made later', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'memory-watch-'));
    dirs.push(dir);
    const file = path.join(dir, 'a.md');
    writeFileSync(file, '1');
    const seen: MemoryChange[] = [];
    const watcher = new MemoryWatcher(treeScope(dir), (c) => seen.push(c));
    try {
      await sleep(50);
      writeFileSync(path.join(dir, '.a.md.tmp'), '2');
      renameSync(path.join(dir, '.a.md.tmp'), file);
      await until(seen, 'a.md', 1);
      expect(seen.filter((c) => c.name === 'a.md')).toHaveLength(1);
      await sleep(150);
      writeFileSync(file, '3');
      await until(seen, 'a.md', 2);
      expect(seen.filter((c) => c.name === 'a.md')).toHaveLength(2);

      mkdirSync(path.join(dir, 'team'));
      await sleep(150);
      writeFileSync(path.join(dir, 'team', 'b.md'), 'x');
      await until(seen, 'team/b.md', 1);
      expect(seen.map((c) => c.name)).toContain('team/b.md');
    } finally {
      watcher.dispose();
    }
  });
});

describe('MemoryWatcher: links and limits', () => {
  function projectDefs(base: string) {
    const project = path.join(base, 'proj');
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    const defs = scopeDefs({
      projectRoot: project,
      homeDir: path.join(base, 'h'),
      carapaceHome: path.join(base, 'c'),
      memoryDir: path.join(base, 'm'),
      managedDirs: [],
    });
    return { project, defs };
  }

  // A repository that commits `.claude/rules -> /usr` put 15,295 watches on the main process.
  it('does not watch a rules folder the repository links out of the project', () => {
    const base = temp();
    const outside = path.join(base, 'usr');
    manyFolders(outside, 40);
    const { project, defs } = projectDefs(base);
    symlinkSync(outside, path.join(project, '.claude', 'rules'));
    const bare = new MemoryWatcher(projectDefs(temp()).defs, () => undefined);
    const baseline = bare.watchCount;
    bare.dispose();
    const watcher = new MemoryWatcher(defs, () => undefined);
    try {
      expect(watcher.watchCount).toBe(baseline);
    } finally {
      watcher.dispose();
    }
  });

  it('does not watch the rules of a .claude folder the repository links out of the project', () => {
    const base = temp();
    const outside = path.join(base, 'usr');
    manyFolders(path.join(outside, 'rules'), 40);
    const project = path.join(base, 'proj');
    mkdirSync(project);
    symlinkSync(outside, path.join(project, '.claude'));
    const defs = scopeDefs({
      projectRoot: project,
      homeDir: path.join(base, 'h'),
      carapaceHome: path.join(base, 'c'),
      memoryDir: path.join(base, 'm'),
      managedDirs: [],
    });
    const watcher = new MemoryWatcher(defs, () => undefined);
    try {
      expect(watcher.watchCount).toBeLessThan(10);
    } finally {
      watcher.dispose();
    }
  });

  it('does not follow a linked subfolder inside a tree, nor one made later', async () => {
    const dir = temp();
    const outside = temp();
    manyFolders(outside, 20);
    mkdirSync(path.join(dir, 'real'));
    symlinkSync(outside, path.join(dir, 'linked'));
    const seen: MemoryChange[] = [];
    const watcher = new MemoryWatcher(treeScope(dir), (c) => seen.push(c));
    try {
      expect(watcher.watchCount).toBe(2); // the root and real/
      symlinkSync(outside, path.join(dir, 'later'));
      await sleep(150);
      expect(watcher.watchCount).toBe(2);
      writeFileSync(path.join(outside, 'g0', 'x.md'), 'x');
      writeFileSync(path.join(dir, 'real', 'y.md'), 'y');
      await until(seen, 'real/y.md', 1);
      await sleep(100);
      expect(seen.map((c) => c.name)).toEqual(['real/y.md']);
    } finally {
      watcher.dispose();
    }
  });

  it('stops at the watch limit with one notice, roots first', () => {
    const dir = temp();
    manyFolders(dir, MAX_MEMORY_WATCHES + 40);
    const second = temp();
    const notices: string[] = [];
    const defs = [...treeScope(dir), ...treeScope(second)];
    const watcher = new MemoryWatcher(
      defs,
      () => undefined,
      undefined,
      (m) => notices.push(m),
    );
    try {
      expect(watcher.watchCount).toBe(MAX_MEMORY_WATCHES);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(`${MAX_MEMORY_WATCHES} folders`);
      // The second tree's root was watched before the first tree's subfolders used up the limit.
      expect((watcher as unknown as { watched: Set<string> }).watched.has(second)).toBe(true);
    } finally {
      watcher.dispose();
    }
  });
});
