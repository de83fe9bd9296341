import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '@shared/domain/permissions';
import { realpathNearest } from '../../platform/real-path';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import { memoryDirFor } from '../memory/dir/paths';
import { builtinTools } from '../tools/registry';
import type { AnyTool } from '../tools/tool';
import { memoryWriteReason } from './memory-dir-rule';
import { createSessionGate } from './session-gate';

const tool = (name: string) => builtinTools().find((t) => t.name === name) as AnyTool;

/** memoryWriteReason with the checked paths the engine would pass: where the writes really lead. */
const reason = (toolName: string, writes: string[], dir: string | null) =>
  memoryWriteReason(toolName, writes, dir, writes.map(realpathNearest));

/**
 * The real session gate (settings read from disk) for a project whose memory directory exists, with
 * nobody to ask: an "ask" comes back as a denial, so only what is allowed unasked passes.
 */
function setup(mode: PermissionMode = 'default') {
  const root = tempDir();
  const userHome = path.join(root, 'home');
  const carapaceHome = path.join(userHome, '.carapace');
  const tc = toolContext();
  mkdirSync(path.join(tc.projectRoot, '.git'), { recursive: true });
  const memoryDir = memoryDirFor({ carapaceHome, projectRoot: tc.projectRoot });
  mkdirSync(memoryDir, { recursive: true });
  const gate = createSessionGate({
    sessionId: 's',
    locations: {
      home: carapaceHome,
      projectRoot: tc.projectRoot,
      policyFile: path.join(root, 'policy.json'),
    },
    mode: () => mode,
    sandboxActive: () => false,
    handler: null,
    home: userHome,
  });
  const check = async (name: string, file_path: string) => {
    const input =
      name === 'Write' ? { file_path, content: 'x' } : { file_path, old_string: 'a', new_string: 'b' };
    return (await gate.check(tool(name), input, tc)).behavior;
  };
  return { root, userHome, carapaceHome, tc, memoryDir, check };
}

describe('memory directory permission rule', () => {
  it('allows Write and Edit of memory files without asking, team memory and MEMORY.md included', async () => {
    const s = setup();
    expect(await s.check('Write', path.join(s.memoryDir, 'feedback_tabs.md'))).toBe('allow');
    expect(await s.check('Edit', path.join(s.memoryDir, 'MEMORY.md'))).toBe('allow');
    expect(await s.check('Write', path.join(s.memoryDir, 'team', 'deploys.md'))).toBe('allow');
    // The same write elsewhere outside the project is asked (here: refused, nobody to ask).
    expect(await s.check('Write', path.join(s.root, 'elsewhere.md'))).toBe('deny');
  });

  it('does not auto-allow through a link in the memory directory to ~/.bashrc', async () => {
    const s = setup();
    mkdirSync(s.userHome, { recursive: true });
    writeFileSync(path.join(s.userHome, '.bashrc'), 'echo hi\n');
    symlinkSync(path.join(s.userHome, '.bashrc'), path.join(s.memoryDir, 'notes.md'));
    expect(await s.check('Write', path.join(s.memoryDir, 'notes.md'))).toBe('deny');
    expect(await s.check('Edit', path.join(s.memoryDir, 'notes.md'))).toBe('deny');
  });

  it("does not auto-allow through a link to the project's .git", async () => {
    const s = setup();
    symlinkSync(path.join(s.tc.projectRoot, '.git'), path.join(s.memoryDir, 'repo'));
    expect(await s.check('Write', path.join(s.memoryDir, 'repo', 'config.md'))).toBe('deny');
    expect(await s.check('Write', path.join(s.memoryDir, 'repo', 'hooks', 'pre-commit.md'))).toBe('deny');
  });

  it('does not auto-allow .. escapes, NUL bytes, dot-folders or files that are not Markdown', async () => {
    const s = setup();
    expect(await s.check('Write', `${s.memoryDir}/../../escape.md`)).toBe('deny');
    // A NUL never reaches a decision: the tool refuses the path first, and the rule refuses it too.
    await expect(s.check('Write', `${s.memoryDir}/x.md\0.sh`)).rejects.toThrow(/NUL/);
    expect(reason('Write', [`${s.memoryDir}/x.md\0.sh`], s.memoryDir)).toBeNull();
    expect(await s.check('Write', path.join(s.memoryDir, '.git', 'config.md'))).toBe('deny');
    expect(await s.check('Write', path.join(s.memoryDir, 'run.sh'))).toBe('deny');
  });

  it('is off when auto memory is off, in plan mode, and under a deny rule', async () => {
    const off = setup();
    mkdirSync(off.carapaceHome, { recursive: true });
    writeFileSync(path.join(off.carapaceHome, 'settings.json'), JSON.stringify({ autoMemoryEnabled: false }));
    expect(await off.check('Write', path.join(off.memoryDir, 'a.md'))).toBe('deny');

    const plan = setup('plan');
    expect(await plan.check('Write', path.join(plan.memoryDir, 'a.md'))).toBe('deny');

    const denied = setup();
    mkdirSync(denied.carapaceHome, { recursive: true });
    writeFileSync(
      path.join(denied.carapaceHome, 'settings.json'),
      JSON.stringify({ permissions: { deny: [`Edit(/${denied.memoryDir}/**)`] } }),
    );
    expect(await denied.check('Write', path.join(denied.memoryDir, 'a.md'))).toBe('deny');
  });

  it('is not used for other tools or without a memory directory', () => {
    const dir = tempDir();
    expect(reason('Write', [path.join(dir, 'a.md')], dir)).not.toBeNull();
    expect(reason('Bash', [path.join(dir, 'a.md')], dir)).toBeNull();
    expect(reason('Write', [path.join(dir, 'a.md')], null)).toBeNull();
    expect(reason('Write', [path.join(dir, 'a.md'), '/etc/passwd.md'], dir)).toBeNull();
  });

  it('does not auto-allow a decomposed (NFD) name whose link leads out, though its NFC twin is fine', async () => {
    const s = setup();
    // ~/.claude/rules is loaded into every session: a file written there is a standing instruction.
    const rules = path.join(s.userHome, '.claude', 'rules');
    mkdirSync(rules, { recursive: true });
    const nfd = 'cafe\u0301';
    symlinkSync(rules, path.join(s.memoryDir, nfd));
    const evil = path.join(s.memoryDir, nfd, 'evil.md');
    expect(await s.check('Write', evil)).toBe('deny');
    expect(await s.check('Edit', evil)).toBe('deny');
    expect(existsSync(path.join(rules, 'evil.md'))).toBe(false);
    // The composed spelling names a different, ordinary folder inside the memory directory.
    expect(await s.check('Write', path.join(s.memoryDir, nfd.normalize('NFC'), 'fine.md'))).toBe('allow');
  });

  it('needs every checked path (what the tool will write) inside the real memory directory', () => {
    const dir = tempDir();
    const outside = path.join(tempDir(), 'elsewhere.md');
    const write = path.join(dir, 'a.md');
    expect(memoryWriteReason('Write', [write], dir, [realpathNearest(write)])).not.toBeNull();
    // The write passes validateMemoryPath, but the engine resolved it somewhere else: no auto-allow.
    expect(memoryWriteReason('Write', [write], dir, [realpathNearest(write), outside])).toBeNull();
    expect(memoryWriteReason('Write', [write], dir, [])).toBeNull();
  });
});
