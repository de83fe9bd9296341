import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { MAX_COMMAND_PROMPT_CHARS } from './expand';
import { loadCustomCommands } from './load-commands';
import { prepareTurn } from './prepare-turn';

/** A hostile repository's `.claude/commands`, and a person typing a huge argument. */
function layout() {
  const root = tempDir('carapace-hostile-commands-');
  const project = path.join(root, 'project');
  const folders = { projectRoot: project, home: path.join(root, 'home'), carapaceHome: path.join(root, 'c') };
  const dir = path.join(project, '.claude', 'commands');
  mkdirSync(dir, { recursive: true });
  const write = (rel: string, text: string) => writeFileSync(path.join(dir, rel), text);
  return { folders, dir, write };
}

describe('hostile custom commands', () => {
  it('a body of many $ARGUMENTS times a 1 MB argument is refused with a clear error, not built', () => {
    const t = layout();
    // 20,000 placeholders (under the 256 KB file cap) × 1 MB would be a 20 GB string.
    t.write('boom.md', '$ARGUMENTS '.repeat(20_000));
    const arg = 'a'.repeat(1024 * 1024);
    const r = prepareTurn(`/boom ${arg}`, t.folders, 'app');
    expect(r.kind).toBe('error');
    if (r.kind === 'error')
      expect(r.message).toMatch(/\/boom would send a prompt longer than 1,000,000 characters/);
    // One placeholder and a small argument is fine; an argument holding $ARGUMENTS stays plain text.
    t.write('ok.md', 'Review: $ARGUMENTS');
    const ok = prepareTurn('/ok $ARGUMENTS $1 and $ARGUMENTS[0]', t.folders, 'app');
    expect(ok).toMatchObject({ kind: 'send', prompt: 'Review: $ARGUMENTS $1 and $ARGUMENTS[0]' });
    // Right at the limit it is still sent.
    t.write('edge.md', '$ARGUMENTS');
    const edge = prepareTurn(`/edge ${'b'.repeat(MAX_COMMAND_PROMPT_CHARS)}`, t.folders, 'app');
    expect(edge.kind).toBe('send');
  });

  it('a FIFO and a link to /dev/zero in the commands folder are reported, not read (loading does not hang)', () => {
    const t = layout();
    execFileSync('mkfifo', [path.join(t.dir, 'pipe.md')]);
    symlinkSync('/dev/zero', path.join(t.dir, 'zero.md'));
    t.write('fine.md', 'Fine.');
    const { commands, problems } = loadCustomCommands(t.folders);
    expect(commands.map((c) => c.name)).toEqual(['fine']);
    expect(problems.map((p) => path.basename(p.file)).sort()).toEqual(['pipe.md', 'zero.md']);
  });

  it("a repository's 500 command files do not use up the reading of the person's own commands", () => {
    const t = layout();
    for (let i = 0; i < 520; i++) t.write(`junk${String(i).padStart(3, '0')}.md`, 'junk');
    const userDir = path.join(t.folders.home, '.claude', 'commands');
    mkdirSync(userDir, { recursive: true });
    writeFileSync(path.join(userDir, 'mine.md'), 'My own command.');
    const { commands, problems } = loadCustomCommands(t.folders);
    expect(commands.filter((c) => c.scope === 'project')).toHaveLength(500);
    expect(commands.find((c) => c.name === 'mine')).toMatchObject({ scope: 'user' });
    expect(problems.some((p) => /only the first 500 command files/.test(p.message))).toBe(true);
  });

  it('a name like ../../x is not a command name: nothing outside the folder is looked up', () => {
    const t = layout();
    t.write('x.md', 'X.');
    expect(prepareTurn('/../../x', t.folders, 'app')).toMatchObject({ kind: 'send', command: null });
    expect(prepareTurn('/..', t.folders, 'app')).toMatchObject({
      kind: 'send',
      command: null,
      prompt: '/..',
    });
    expect(prepareTurn('/x/../x', t.folders, 'app')).toMatchObject({ kind: 'send', command: null });
  });
});
