import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { carapaceHomeReason, protectedPathReason } from '../../harness/permissions/protected-paths';

let home: string;
let wt: string;

beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'carapace-home-'));
  wt = path.join(home, 'worktrees', 'repo-abc', 'session-1');
  mkdirSync(wt, { recursive: true });
  writeFileSync(path.join(home, 'settings.json'), '{}');
  // A worktree's `.git` is a file pointing into the main repository's `.git/worktrees/<name>`.
  writeFileSync(path.join(wt, '.git'), 'gitdir: /elsewhere/.git/worktrees/session-1\n');
});

afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('a session worktree inside the data folder', () => {
  it('is not guarded as the data folder: its files are the project', () => {
    expect(carapaceHomeReason(path.join(wt, 'src', 'a.ts'), home)).toBeNull();
  });

  it('still guards the rest of the data folder, and a link in the worktree that leads there', () => {
    expect(carapaceHomeReason(path.join(home, 'settings.json'), home)).toContain(
      "Carapace's own data folder",
    );
    symlinkSync(path.join(home, 'settings.json'), path.join(wt, 'innocent.json'));
    expect(carapaceHomeReason(path.join(wt, 'innocent.json'), home)).toContain("Carapace's own data folder");
  });

  it("keeps the worktree's .git file protected", () => {
    expect(protectedPathReason(path.join(wt, '.git'), wt)).not.toBeNull();
  });
});
