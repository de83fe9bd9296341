import { mkdirSync, readFileSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { readFileChecked, writeFileNoFollow } from './paths';

/**
 * The last line of the use-time check: the file tools read and write through a descriptor that must
 * be the very file that was checked. A path that leads anywhere else when opened — a folder on the
 * way swapped for a link, or a link at the end — is refused before a byte is read or written.
 */
describe('file access through a checked descriptor', () => {
  it('refuses a path that, when opened, is another file; writes and reads the checked one', async () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, 'authorized_keys'), 'ssh-ed25519 original\n');
    // As if `d` had just been swapped for a link to a folder outside.
    symlinkSync(outside, path.join(dir, 'd'));
    const swapped = path.join(dir, 'd', 'authorized_keys');
    await expect(writeFileNoFollow(swapped, 'ssh-ed25519 planted\n')).rejects.toThrow(/was opened as/);
    await expect(readFileChecked(swapped)).rejects.toThrow(/was opened as/);
    expect(readFileSync(path.join(outside, 'authorized_keys'), 'utf8')).toBe('ssh-ed25519 original\n');
    // A link at the last step is not followed at all.
    symlinkSync(path.join(outside, 'authorized_keys'), path.join(dir, 'keys'));
    await expect(writeFileNoFollow(path.join(dir, 'keys'), 'x')).rejects.toThrow();
    // Controls: the checked file itself is written (replacing longer content) and read.
    mkdirSync(path.join(dir, 'src'));
    const file = path.join(dir, 'src', 'a.txt');
    writeFileSync(file, 'a much longer original content\n');
    await writeFileNoFollow(file, 'short\n');
    expect(readFileSync(file, 'utf8')).toBe('short\n');
    expect((await readFileChecked(file)).toString()).toBe('short\n');
    await writeFileNoFollow(path.join(dir, 'src', 'new.txt'), 'new\n');
    expect(existsSync(path.join(dir, 'src', 'new.txt'))).toBe(true);
  });
});
