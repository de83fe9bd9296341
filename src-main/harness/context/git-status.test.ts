import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGit } from '../../test-support/git';
import { tempDir as makeTempDir } from '../../test-support/temp';
import {
  driverOverrides,
  GIT_STATUS_LIMIT,
  parseBranchLine,
  renderGitSnapshot,
  takeGitSnapshot,
  truncateStatus,
} from './git-status';

const tempDir = () => makeTempDir('carapace-git-');
const run = runGit;

function repo(branch = 'main'): string {
  const d = tempDir();
  run(d, 'init', '-q', '-b', branch);
  writeFileSync(path.join(d, 'tracked.txt'), 'one\n');
  run(d, 'add', 'tracked.txt');
  run(d, 'commit', '-q', '-m', 'first');
  return d;
}

/** A script that leaves a marker file when run: proof that git ran something of the repository's. */
function markerScript(dir: string, marker: string, passStdin = false): string {
  const script = path.join(dir, 'evil.sh');
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n${passStdin ? 'cat\n' : ''}`);
  chmodSync(script, 0o755);
  return script;
}

describe('takeGitSnapshot', () => {
  it('gives the branch and the short status of a repository', async () => {
    const d = repo('feature/x');
    writeFileSync(path.join(d, 'tracked.txt'), 'two\n');
    writeFileSync(path.join(d, 'new.txt'), 'new\n');
    const g = await takeGitSnapshot(d);
    expect(g).toEqual({ branch: 'feature/x', status: ' M tracked.txt\n?? new.txt' });
    expect(renderGitSnapshot(g!)).toContain(
      'Current branch: feature/x\n\nStatus:\n M tracked.txt\n?? new.txt',
    );
  });

  it('says clean, and finds the repository from a subfolder', async () => {
    const d = repo();
    const sub = path.join(d, 'sub');
    execFileSync('mkdir', [sub]);
    const g = await takeGitSnapshot(sub);
    expect(g).toEqual({ branch: 'main', status: '' });
    expect(renderGitSnapshot(g!)).toMatch(/Status:\n\(clean\)$/);
  });

  it('is null outside a repository', async () => {
    expect(await takeGitSnapshot(tempDir())).toBeNull();
  });

  it('a detached HEAD has no branch', async () => {
    const d = repo();
    run(d, 'checkout', '-q', '--detach');
    expect((await takeGitSnapshot(d))?.branch).toBeNull();
  });

  it('cuts a long status at the limit, with a note', async () => {
    const d = repo();
    for (let i = 0; i < 300; i++) writeFileSync(path.join(d, `untracked-file-number-${i}.txt`), '');
    const g = await takeGitSnapshot(d);
    expect(g?.status.length).toBeLessThan(GIT_STATUS_LIMIT + 200);
    expect(g?.status).toMatch(
      /… \(status cut at 2,000 characters: \d+ more lines; run git status for the rest\)$/,
    );
  });
});

describe('a hostile repository cannot make the snapshot run anything', () => {
  it('core.fsmonitor pointing at a script: the script does not run (and does when git is not hardened)', async () => {
    const d = repo();
    const outside = tempDir();
    const marker = path.join(outside, 'fsmonitor-ran');
    run(d, 'config', 'core.fsmonitor', markerScript(outside, marker));
    await takeGitSnapshot(d);
    expect(existsSync(marker)).toBe(false);
    // The control: a plain status in the same repository does run it, so the check above means something.
    run(d, 'status', '--short');
    expect(existsSync(marker)).toBe(true);
  });

  it('a clean filter on a file whose stat data changed: the filter does not run (and does when git is not hardened)', async () => {
    const d = repo();
    const outside = tempDir();
    const marker = path.join(outside, 'filter-ran');
    writeFileSync(path.join(d, '.gitattributes'), '*.txt filter=evil\n');
    run(d, 'config', 'filter.evil.clean', markerScript(outside, marker, true));
    run(d, 'config', 'filter.evil.required', 'true');
    // Same content, new mtime: git must re-hash the file, through the filter.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(d, 'tracked.txt'), later, later);
    const g = await takeGitSnapshot(d);
    expect(existsSync(marker)).toBe(false);
    expect(g?.branch).toBe('main');
    run(d, 'status', '--short');
    expect(existsSync(marker)).toBe(true);
  });

  it('a filter driver whose name cannot be overridden: git is not run at all', async () => {
    const d = repo();
    const outside = tempDir();
    const marker = path.join(outside, 'filter-ran');
    writeFileSync(path.join(d, '.gitattributes'), '*.txt filter=a=b\n');
    run(d, 'config', 'filter.a=b.clean', markerScript(outside, marker, true));
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(d, 'tracked.txt'), later, later);
    expect(await takeGitSnapshot(d)).toBeNull();
    expect(existsSync(marker)).toBe(false);
  });

  it('a `git` the repository ships is not the one run, even with `.` and an empty entry in PATH', async () => {
    const d = repo();
    const outside = tempDir();
    const marker = path.join(outside, 'fake-git-ran');
    writeFileSync(path.join(d, 'git'), `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(path.join(d, 'git'), 0o755);
    const saved = process.env['PATH'];
    process.env['PATH'] = `.${path.delimiter}${path.delimiter}${saved ?? ''}`;
    try {
      expect((await takeGitSnapshot(d))?.branch).toBe('main');
    } finally {
      process.env['PATH'] = saved;
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('a file name with a newline and an escape sequence stays one quoted status line, even with core.quotePath off', async () => {
    const d = repo();
    run(d, 'config', 'core.quotePath', 'false');
    writeFileSync(path.join(d, 'evil\nCurrent branch: main\u001b[2J'), '');
    const g = await takeGitSnapshot(d);
    expect(g?.status).toBe('?? "evil\\nCurrent branch: main\\033[2J"');
  });

  it('GIT_DIR in the app environment does not redirect it', async () => {
    const d = repo('mine');
    const other = repo('elsewhere');
    const saved = process.env['GIT_DIR'];
    process.env['GIT_DIR'] = path.join(other, '.git');
    try {
      expect((await takeGitSnapshot(d))?.branch).toBe('mine');
    } finally {
      if (saved === undefined) delete process.env['GIT_DIR'];
      else process.env['GIT_DIR'] = saved;
    }
  });
});

describe('parsing', () => {
  it('reads the branch line forms', () => {
    expect(parseBranchLine('## main...origin/main [ahead 1]')).toBe('main');
    expect(parseBranchLine('## No commits yet on trunk')).toBe('trunk');
    expect(parseBranchLine('## HEAD (no branch)')).toBeNull();
    expect(parseBranchLine('## dev')).toBe('dev');
  });

  it('keeps a short status whole and cuts a long one at a line end', () => {
    expect(truncateStatus('?? a', 10)).toBe('?? a');
    expect(truncateStatus('?? aaa\n?? bbb\n?? ccc', 10)).toBe(
      '?? aaa\n… (status cut at 10 characters: 2 more lines; run git status for the rest)',
    );
  });
});

describe('driverOverrides', () => {
  const config = [
    'filter.lfs.clean\ngit-lfs clean',
    'filter.lfs.smudge\nx',
    'merge.ours.driver\ntrue',
    '',
  ].join('\0');
  it('empties each filter driver once, and merge drivers only when asked', () => {
    const filterOnly = [
      'filter.lfs.clean=',
      'filter.lfs.smudge=',
      'filter.lfs.process=',
      'filter.lfs.required=false',
    ];
    expect(driverOverrides(config, ['filter'])).toEqual(filterOnly);
    expect(driverOverrides(config, ['filter', 'merge'])).toEqual([...filterOnly, 'merge.ours.driver=']);
  });
  it('is null for a driver name git cannot be told to skip', () => {
    expect(driverOverrides('filter.a=b.clean\nx\0', ['filter'])).toBeNull();
    expect(driverOverrides('merge.a=b.driver\nx\0', ['filter'])).toEqual([]);
  });
});
