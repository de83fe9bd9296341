import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountTargets, sandboxFingerprint } from './sandbox-fingerprint';

let project = '';
beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), 'carapace-fingerprint-'));
  mkdirSync(path.join(project, 'src', 'deep'), { recursive: true });
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const inputs = () => ({
  writable: [project],
  denyWrite: [path.join(project, '.bashrc')],
  denyRead: [path.join(project, '**', '.env*'), path.join(project, 'secret.txt')],
  allowedDomains: ['example.com'],
});

describe('sandboxFingerprint', () => {
  it('stays the same while nothing the sandbox was made from changed', () => {
    const before = sandboxFingerprint(inputs());
    writeFileSync(path.join(project, 'src', 'deep', 'code.ts'), 'x');
    // An ordinary new file changes a folder but matches no glob.
    expect(sandboxFingerprint(inputs())).toBe(before);
  });

  it('changes when a file a deny-read glob matches appears, however deep, or through a symlinked folder', () => {
    const before = sandboxFingerprint(inputs());
    writeFileSync(path.join(project, 'src', 'deep', '.env.local'), 'KEY=1');
    const deep = sandboxFingerprint(inputs());
    expect(deep).not.toBe(before);
    const outside = mkdtempSync(path.join(tmpdir(), 'carapace-fingerprint-out-'));
    try {
      symlinkSync(outside, path.join(project, 'linked'));
      const linked = sandboxFingerprint(inputs());
      writeFileSync(path.join(outside, '.env'), 'KEY=2');
      expect(sandboxFingerprint(inputs())).not.toBe(linked);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('changes when a named path appears or a mount point is removed, and with the policy', () => {
    const mount = path.join(project, '.gitconfig');
    writeFileSync(mount, '');
    const before = sandboxFingerprint(inputs(), [mount]);
    writeFileSync(path.join(project, 'secret.txt'), 's');
    const named = sandboxFingerprint(inputs(), [mount]);
    expect(named).not.toBe(before);
    rmSync(mount);
    expect(sandboxFingerprint(inputs(), [mount])).not.toBe(named);
    expect(sandboxFingerprint({ ...inputs(), allowedDomains: ['other.org'] }, [mount])).not.toBe(
      sandboxFingerprint(inputs(), [mount]),
    );
  });
});

describe('mountTargets', () => {
  it('reads the targets of binds and tmpfs mounts from a bubblewrap command line, quotes undone', () => {
    const argv = [
      '/bin/bash',
      '-c',
      "bwrap --ro-bind / / --bind /p/a /p/a --ro-bind /dev/null '/p/my file' --tmpfs /etc/x --setenv A '--bind /no /no' --proc /proc -- /bin/bash -c '--bind /x /y'",
    ];
    expect(mountTargets(argv).sort()).toEqual(['/', '/etc/x', '/p/a', '/p/my file', '/proc']);
  });
});
