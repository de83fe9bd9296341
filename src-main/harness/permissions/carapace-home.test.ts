import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '@shared/domain/permissions';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import { memoryDirFor } from '../memory/dir/paths';
import { builtinTools } from '../tools/registry';
import type { AnyTool } from '../tools/tool';
import { PermissionEngine } from './engine';
import { carapaceHomeDenials } from './protected-paths';
import { shellPolicy } from './sandbox-policy';
import { loadPermissionSources } from './settings-sources';
import { createSessionGate } from './session-gate';

const tool = (name: string) => builtinTools().find((t) => t.name === name) as AnyTool;

/**
 * A person opened their home folder as the project, so Carapace's data folder (`~/.carapace`, with
 * the settings that hold their budgets) lies inside it. The real session gate with nobody to ask:
 * an "ask" comes back as a denial.
 */
function setup(mode: PermissionMode = 'acceptEdits', o: { linkedHome?: boolean } = {}) {
  const userHome = tempDir();
  let carapaceHome = path.join(userHome, '.carapace');
  mkdirSync(carapaceHome, { recursive: true });
  writeFileSync(path.join(carapaceHome, 'settings.json'), JSON.stringify({ budgets: { dailyUsd: 5 } }));
  writeFileSync(path.join(carapaceHome, 'trust.json'), '{}');
  if (o.linkedHome) {
    // CARAPACE_HOME given through a link outside the project that leads into it.
    const link = path.join(tempDir(), 'carapace-link');
    symlinkSync(carapaceHome, link);
    carapaceHome = link;
  }
  const tc = toolContext({ projectRoot: userHome, cwd: userHome, permissionMode: mode });
  const memoryDir = memoryDirFor({ carapaceHome, projectRoot: tc.projectRoot });
  mkdirSync(memoryDir, { recursive: true });
  const gate = createSessionGate({
    sessionId: 's',
    locations: { home: carapaceHome, projectRoot: userHome, policyFile: path.join(tempDir(), 'policy.json') },
    mode: () => mode,
    sandboxActive: () => false,
    handler: null,
    home: userHome,
  });
  const check = async (name: string, file_path: string) => {
    const input =
      name === 'Write' ? { file_path, content: 'x' } : { file_path, old_string: 'a', new_string: 'b' };
    return gate.check(tool(name), input, tc);
  };
  return { userHome, carapaceHome, tc, memoryDir, check };
}

describe('$CARAPACE_HOME is a protected path', () => {
  it('asks before Write or Edit of its settings and trust even in acceptEdits, as .claude/ does', async () => {
    const s = setup();
    const settings = await s.check('Write', path.join(s.userHome, '.carapace', 'settings.json'));
    expect(settings).toMatchObject({ behavior: 'deny', message: expect.stringMatching(/CARAPACE_HOME/) });
    expect((await s.check('Edit', path.join(s.userHome, '.carapace', 'trust.json'))).behavior).toBe('deny');
    expect((await s.check('Write', path.join(s.userHome, '.carapace', 'new-file'))).behavior).toBe('deny');
    expect((await s.check('Write', path.join(s.userHome, '.claude', 'settings.json'))).behavior).toBe('deny');
    // An ordinary file of the same project is still written unasked.
    expect((await s.check('Write', path.join(s.userHome, 'notes.md'))).behavior).toBe('allow');
  });

  it('keeps memory files writable without approval', async () => {
    const s = setup();
    expect((await s.check('Write', path.join(s.memoryDir, 'feedback_tabs.md'))).behavior).toBe('allow');
    expect((await s.check('Edit', path.join(s.memoryDir, 'MEMORY.md'))).behavior).toBe('allow');
    // Next to the memory folder (a transcript) is not memory.
    expect((await s.check('Write', path.join(path.dirname(s.memoryDir), 'x.jsonl'))).behavior).toBe('deny');
  });

  it('resolves links: a link in the project into the data folder, and a data folder given as a link', async () => {
    const s = setup();
    symlinkSync(path.join(s.userHome, '.carapace'), path.join(s.userHome, 'innocent'));
    expect((await s.check('Write', path.join(s.userHome, 'innocent', 'settings.json'))).behavior).toBe(
      'deny',
    );
    const l = setup('acceptEdits', { linkedHome: true });
    expect((await l.check('Write', path.join(l.userHome, '.carapace', 'settings.json'))).behavior).toBe(
      'deny',
    );
    expect((await l.check('Write', path.join(l.memoryDir, 'note.md'))).behavior).toBe('allow');
  });

  it('is decided by the engine when the context names the folder, and only then', async () => {
    const s = setup();
    const engine = (carapaceHome: string | null) =>
      new PermissionEngine(() => ({
        rules: [],
        mode: 'acceptEdits',
        home: s.userHome,
        carapaceHome,
        sandbox: { active: false, autoAllowBashIfSandboxed: false, excludedCommands: [] },
      }));
    const input = { file_path: path.join(s.userHome, '.carapace', 'settings.json'), content: '{}' };
    expect((await engine(s.carapaceHome).decide(tool('Write'), input, s.tc)).behavior).toBe('ask');
    expect((await engine(null).decide(tool('Write'), input, s.tc)).behavior).toBe('allow');
  });

  it('mounts its entries read-only for sandboxed commands when it lies in the project, its projects folder kept writable', () => {
    const s = setup();
    const real = (p: string) => path.join(path.dirname(s.memoryDir).split('/projects/')[0] ?? '', p);
    const denied = carapaceHomeDenials(s.carapaceHome, [s.userHome]);
    expect(denied.sort()).toEqual([real('settings.json'), real('trust.json')].sort());
    expect(carapaceHomeDenials(s.carapaceHome, [tempDir()])).toEqual([]);
    const policy = shellPolicy(
      {
        ...loadPermissionSources({
          home: s.carapaceHome,
          projectRoot: s.userHome,
          policyFile: '/nonexistent',
        }),
        sandbox: { enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: [], allowedDomains: [] },
      },
      { projectRoot: s.userHome, home: s.userHome, tempDir: tempDir(), carapaceHome: s.carapaceHome },
    );
    expect(policy.denyWrite).toEqual(expect.arrayContaining(denied));
  });
});
