import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp';
import { validateMemoryPath } from './validate-memory-path';

function memoryDir(): { root: string; dir: string } {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  mkdirSync(dir);
  return { root, dir };
}

const code = (r: ReturnType<typeof validateMemoryPath>) => (r.ok ? 'ok' : r.code);

describe('validateMemoryPath', () => {
  it('accepts a new or existing file inside the memory directory', () => {
    const { dir } = memoryDir();
    expect(validateMemoryPath(path.join(dir, 'new.md'), dir)).toEqual({
      ok: true,
      path: path.join(dir, 'new.md'),
    });
    writeFileSync(path.join(dir, 'old.md'), 'x');
    expect(code(validateMemoryPath(path.join(dir, 'old.md'), dir))).toBe('ok');
    expect(code(validateMemoryPath(path.join(dir, 'team', 'shared.md'), dir))).toBe('ok');
  });

  it('layer: rejects relative paths', () => {
    const { dir } = memoryDir();
    expect(code(validateMemoryPath('notes/x.md', dir))).toBe('relative');
    expect(code(validateMemoryPath('./x.md', dir))).toBe('relative');
  });

  it('layer: rejects paths under 3 characters', () => {
    const { dir } = memoryDir();
    expect(code(validateMemoryPath('/a', dir))).toBe('too-short');
    expect(code(validateMemoryPath('', dir))).toBe('too-short');
  });

  it('layer: rejects UNC paths', () => {
    const { dir } = memoryDir();
    expect(code(validateMemoryPath('\\\\server\\share\\x.md', dir))).toBe('unc-path');
    expect(code(validateMemoryPath('//server/share/x.md', dir))).toBe('unc-path');
  });

  it('layer: rejects NUL bytes', () => {
    const { dir } = memoryDir();
    expect(code(validateMemoryPath(`${dir}/x.md\0.txt`, dir))).toBe('nul-byte');
  });

  it('layer: rejects bare ~, ~/, ~/.. and ~user, and expands ~/x only when allowed', () => {
    const { root, dir } = memoryDir();
    for (const p of ['~', '~/', '~/..', '~/../etc/passwd', '~root/x.md']) {
      expect(code(validateMemoryPath(p, dir, { home: root })), p).toBe('tilde');
    }
    expect(code(validateMemoryPath('~/memory/x.md', dir))).toBe('tilde');
    expect(code(validateMemoryPath('~/memory/x.md', dir, { home: root }))).toBe('ok');
    expect(code(validateMemoryPath('~/memory/../../x.md', dir, { home: root }))).toBe('tilde');
  });

  it('layer: refuses a path not in NFC form (the checked and the written spelling would differ)', () => {
    const { root, dir } = memoryDir();
    expect(validateMemoryPath(path.join(dir, 'caf\u00e9.md'), dir)).toEqual({
      ok: true,
      path: path.join(realpathSync(dir), 'caf\u00e9.md'),
    });
    expect(code(validateMemoryPath(path.join(dir, 'cafe\u0301.md'), dir))).toBe('not-nfc');
    // A link with a decomposed name leading out: its NFC twin does not exist, so checking that
    // spelling would pass while a write to the raw spelling goes through the link.
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, path.join(dir, 'cafe\u0301'));
    expect(code(validateMemoryPath(path.join(dir, 'cafe\u0301', 'evil.md'), dir))).toBe('not-nfc');
  });

  it('layer: refuses .. escapes and other folders', () => {
    const { root, dir } = memoryDir();
    expect(code(validateMemoryPath(path.join(dir, '..', 'x.md'), dir))).toBe('outside-memory-dir');
    expect(code(validateMemoryPath(`${dir}/../memory-evil/x.md`, dir))).toBe('outside-memory-dir');
    expect(code(validateMemoryPath(path.join(root, 'x.md'), dir))).toBe('outside-memory-dir');
    expect(code(validateMemoryPath(dir, dir))).toBe('outside-memory-dir');
  });

  it('layer: resolves symlinks of the file and of every ancestor, and refuses ones pointing out', () => {
    const { root, dir } = memoryDir();
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, '.bashrc'), 'x');
    symlinkSync(path.join(outside, '.bashrc'), path.join(dir, 'bashrc.md'));
    symlinkSync(outside, path.join(dir, 'sub'));
    symlinkSync(path.join(outside, 'not-yet'), path.join(dir, 'dangling.md'));
    expect(code(validateMemoryPath(path.join(dir, 'bashrc.md'), dir))).toBe('symlink-escape');
    expect(code(validateMemoryPath(path.join(dir, 'sub', 'new', 'x.md'), dir))).toBe('symlink-escape');
    expect(code(validateMemoryPath(path.join(dir, 'dangling.md'), dir))).toBe('unresolvable');
  });

  it('accepts a link that stays inside the memory directory', () => {
    const { dir } = memoryDir();
    writeFileSync(path.join(dir, 'real.md'), 'x');
    symlinkSync(path.join(dir, 'real.md'), path.join(dir, 'alias.md'));
    expect(validateMemoryPath(path.join(dir, 'alias.md'), dir)).toEqual({
      ok: true,
      path: path.join(dir, 'real.md'),
    });
  });

  it('handles a memory directory that is itself a symlink, by either name', () => {
    const root = tempDir();
    const real = path.join(root, 'real-memory');
    mkdirSync(real);
    const link = path.join(root, 'memory');
    symlinkSync(real, link);
    expect(validateMemoryPath(path.join(link, 'a.md'), link)).toEqual({
      ok: true,
      path: path.join(real, 'a.md'),
    });
    expect(code(validateMemoryPath(path.join(real, 'a.md'), link))).toBe('ok');
    expect(code(validateMemoryPath(path.join(root, 'a.md'), link))).toBe('outside-memory-dir');
  });
});
