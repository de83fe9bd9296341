import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCappedText, readDefinitionFile, realFolder } from './read-definition-file';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'definition-files-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const entry = (dir: string, name: string) => {
  const found = readdirSync(dir, { withFileTypes: true }).find((e) => e.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
};

describe('readCappedText', () => {
  it('reads UTF-8 text up to the cap and refuses more, other encodings and NUL bytes', () => {
    writeFileSync(path.join(root, 'ok.md'), 'héllo');
    writeFileSync(path.join(root, 'big.md'), 'x'.repeat(2049));
    writeFileSync(path.join(root, 'latin1.md'), Buffer.from([0x68, 0xe9]));
    writeFileSync(path.join(root, 'nul.md'), 'a\0b');
    const read = (name: string) => readCappedText(path.join(root, name), 2048);
    expect(read('ok.md')).toBe('héllo');
    expect(read('big.md')).toEqual({ problem: 'it is larger than 2 KB' });
    expect(read('latin1.md')).toEqual({ problem: 'it is not UTF-8 text' });
    expect(read('nul.md')).toEqual({ problem: 'it contains NUL bytes, so it is not a text file' });
    expect(read('missing.md')).toMatchObject({ problem: expect.stringMatching(/^it could not be read \(/) });
  });
  it('never follows a link itself, and words the refusal as asked', () => {
    writeFileSync(path.join(root, 'ok.md'), 'x');
    symlinkSync(path.join(root, 'ok.md'), path.join(root, 'link.md'));
    expect(readCappedText(path.join(root, 'link.md'), 100, { notAFile: 'no file' })).toEqual({
      problem: 'no file',
    });
  });
});

describe('readDefinitionFile', () => {
  it('follows a link only inside the folder, and says where a link leads when its target is refused', () => {
    const dir = path.join(root, 'commands');
    mkdirSync(dir);
    writeFileSync(path.join(root, 'secret'), 'key');
    writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(2000));
    symlinkSync(path.join(root, 'secret'), path.join(dir, 'out.md'));
    symlinkSync(path.join(dir, 'big.txt'), path.join(dir, 'big.md'));
    mkdirSync(path.join(dir, 'sub.md'));
    const read = (name: string) =>
      readDefinitionFile(path.join(dir, name), entry(dir, name), dir, {
        folder: 'commands folder',
        maxBytes: 1024,
      });
    expect(read('out.md')).toEqual({
      problem: `Not loaded: it is a link leading outside the commands folder (to ${path.join(root, 'secret')}).`,
    });
    expect(read('big.md')).toEqual({
      problem: `Not loaded: it leads to ${path.join(dir, 'big.txt')}, and it is larger than 1 KB.`,
    });
    expect(read('sub.md')).toEqual({ problem: 'Not loaded: it is a folder, not a file.' });
  });
});

describe('realFolder', () => {
  it('is null for a missing folder or one under a file, and a problem for a file', () => {
    writeFileSync(path.join(root, 'file'), '');
    expect(realFolder(path.join(root, 'missing'))).toBeNull();
    expect(realFolder(path.join(root, 'file', 'agents'))).toBeNull();
    expect(realFolder(path.join(root, 'file'))).toEqual({ problem: 'Not read: it is not a folder.' });
    expect(realFolder(root)).toBe(realpathSync.native(root));
  });
});
