import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { collectHooks } from './sources';

function setup(files: { policy?: object; user?: object; project?: object; local?: object }) {
  const home = tempDir('hooks-home-');
  const projectRoot = tempDir('hooks-project-');
  const policyFile = path.join(tempDir('hooks-policy-'), 'managed-settings.json');
  mkdirSync(path.join(projectRoot, '.claude'), { recursive: true });
  const write = (file: string, data: object | undefined) => {
    if (data) writeFileSync(file, JSON.stringify(data));
  };
  write(policyFile, files.policy);
  write(path.join(home, 'settings.json'), files.user);
  write(path.join(projectRoot, '.claude', 'settings.json'), files.project);
  write(path.join(projectRoot, '.claude', 'settings.local.json'), files.local);
  return { home, projectRoot, policyFile };
}

const hook = (command: string) => ({ Stop: [{ hooks: [{ type: 'command', command }] }] });
const commands = (r: ReturnType<typeof collectHooks>) =>
  r.hooks.map((h) => `${h.source}:${h.handler.type === 'command' ? h.handler.command : ''}`);

describe('collectHooks', () => {
  const all = {
    policy: { hooks: hook('p') },
    local: { hooks: hook('l') },
    project: { hooks: hook('j') },
    user: { hooks: hook('u') },
  };

  it('collects policy > local > project > user', () => {
    const r = collectHooks({ locations: setup(all), projectHooksAllowed: true });
    expect(commands(r)).toEqual(['policy:p', 'local:l', 'project:j', 'user:u']);
    expect(r.narrowedBy).toBeNull();
  });

  it("leaves the project's own hooks out unless they are allowed", () => {
    const r = collectHooks({ locations: setup(all), projectHooksAllowed: false });
    expect(commands(r)).toEqual(['policy:p', 'user:u']);
  });

  it("disableAllHooks in the user's file turns off all but the policy hooks; in the project's, its own; in the policy, all", () => {
    const user = collectHooks({
      locations: setup({ ...all, user: { hooks: hook('u'), disableAllHooks: true } }),
      projectHooksAllowed: true,
    });
    expect(commands(user)).toEqual(['policy:p']);
    expect(user.narrowedBy).toContain('disableAllHooks');
    // A repository's files may switch off the repository's own hooks, never the person's: a user's
    // PreToolUse guard (secret scanning, an audit log) stays on in a cloned project that says
    // disableAllHooks, trusted or not.
    for (const projectHooksAllowed of [false, true])
      for (const file of ['project', 'local'] as const) {
        const project = collectHooks({
          locations: setup({ ...all, [file]: { hooks: hook(file), disableAllHooks: true } }),
          projectHooksAllowed,
        });
        expect(commands(project), `${file} ${projectHooksAllowed}`).toEqual(['policy:p', 'user:u']);
        expect(project.narrowedBy).toMatch(/disableAllHooks in .*settings.*json \(the project's own hooks\)/);
      }
    const policy = collectHooks({
      locations: setup({ ...all, policy: { hooks: hook('p'), disableAllHooks: true } }),
      projectHooksAllowed: true,
    });
    expect(commands(policy)).toEqual([]);
  });

  it('allowManagedHooksOnly keeps only the policy hooks, and only from the policy', () => {
    const r = collectHooks({
      locations: setup({ ...all, policy: { hooks: hook('p'), allowManagedHooksOnly: true } }),
      projectHooksAllowed: true,
    });
    expect(commands(r)).toEqual(['policy:p']);
    const fromUser = collectHooks({
      locations: setup({ ...all, user: { hooks: hook('u'), allowManagedHooksOnly: true } }),
      projectHooksAllowed: true,
    });
    expect(commands(fromUser)).toHaveLength(4);
  });

  it('reports a broken entry with its file and path and keeps the others', () => {
    const r = collectHooks({
      locations: setup({
        user: { hooks: { Stop: [{ hooks: [{ type: 'command' }, { type: 'command', command: 'ok' }] }] } },
      }),
      projectHooksAllowed: true,
    });
    expect(commands(r)).toEqual(['user:ok']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/settings\.json: hooks\.Stop\[0\]\.hooks\[0\]\.command/);
  });
});
