import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors';
import { tempDir } from '../test-support/temp';
import { ProjectRegistry, resolveProjectPath } from './projects';
import { listDirectory } from './folder-browser';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return undefined;
}

describe('project paths', () => {
  it('refuses hostile and wrong paths with typed errors', () => {
    const dir = tempDir();
    const file = path.join(dir, 'f.txt');
    writeFileSync(file, 'x');
    expect(code(() => resolveProjectPath(`${dir}\0/etc`))).toBe('INVALID_INPUT');
    expect(code(() => resolveProjectPath('relative/path'))).toBe('INVALID_INPUT');
    expect(code(() => resolveProjectPath(path.join(dir, 'missing')))).toBe('NOT_FOUND');
    expect(code(() => resolveProjectPath(file))).toBe('INVALID_INPUT');
    expect(resolveProjectPath(`${dir}/./`)).toBe(dir);
  });

  it('lists only folders, hides dot-folders unless asked, and refuses a NUL byte', () => {
    const fs = tempDir();
    for (const name of ['b', 'a', '.hidden']) writeFileSync(path.join(fs, `${name}.txt`), '');
    for (const name of ['src', '.git', 'docs']) mkdirSync(path.join(fs, name));
    expect(listDirectory(fs).directories.map((d) => d.name)).toEqual(['docs', 'src']);
    expect(listDirectory(fs, true).directories.map((d) => d.name)).toEqual(['.git', 'docs', 'src']);
    expect(listDirectory(fs).parent).toBe(path.dirname(fs));
    expect(code(() => listDirectory('a\0b'))).toBe('INVALID_INPUT');
    expect(code(() => listDirectory(path.join(fs, 'nope')))).toBe('NOT_FOUND');
  });

  it('remembers recent projects, most recent first, across restarts', () => {
    const home = tempDir();
    const [a, b] = [tempDir(), tempDir()];
    const stateFile = path.join(home, 'state.json');
    const registry = new ProjectRegistry(stateFile);
    registry.touch(a);
    registry.touch(b);
    registry.touch(a);
    const again = new ProjectRegistry(stateFile);
    expect(again.recent().map((p) => p.path)).toEqual([a, b]);
    expect(again.lastProject).toBe(a);
    expect(again.forget(a).map((p) => p.path)).toEqual([b]);
    expect(new ProjectRegistry(stateFile).lastProject).toBeNull();
  });

  it('starts empty when state.json is corrupt instead of failing', () => {
    const home = tempDir();
    writeFileSync(path.join(home, 'state.json'), '{"recentProjects": 12');
    expect(new ProjectRegistry(path.join(home, 'state.json')).recent()).toEqual([]);
  });
});
