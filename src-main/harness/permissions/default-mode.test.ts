import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '@shared/domain/permissions';
import { tempDir } from '../../test-support/temp';
import { restoredMode, trustedModes, type TrustedModes } from './default-mode';

/** A home, a project and a policy path, each file written only when given. */
function place(files: { user?: object; project?: object; local?: object; policy?: object | string }) {
  const home = tempDir();
  const projectRoot = tempDir();
  const policyDir = tempDir();
  const policyFile = path.join(policyDir, 'managed-settings.json');
  mkdirSync(path.join(projectRoot, '.claude'));
  const write = (file: string, value: object | string | undefined) => {
    if (value !== undefined) writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  };
  write(path.join(home, 'settings.json'), files.user);
  write(path.join(projectRoot, '.claude', 'settings.json'), files.project);
  write(path.join(projectRoot, '.claude', 'settings.local.json'), files.local);
  write(policyFile, files.policy);
  return { home, projectRoot, policyFile };
}

const mode = (defaultMode: PermissionMode) => ({ permissions: { defaultMode } });

describe('the default mode of new sessions, from trusted sources', () => {
  it("ignores bypassPermissions and acceptEdits from the project's own files, and says so", () => {
    for (const wide of ['bypassPermissions', 'acceptEdits'] as const) {
      const shared = trustedModes(place({ project: mode(wide) }));
      expect(shared.defaultMode).toBe('default');
      expect(shared.problems.join('\n')).toContain(`permissions.defaultMode to ${wide}`);
      const local = trustedModes(place({ local: mode(wide), user: mode('plan') }));
      // Skipped, not a stop: the next source down still applies.
      expect(local.defaultMode).toBe('plan');
    }
  });

  it('honours the same modes from the user settings and the managed policy (the control)', () => {
    expect(trustedModes(place({ user: mode('bypassPermissions') })).defaultMode).toBe('bypassPermissions');
    expect(trustedModes(place({ user: mode('acceptEdits') })).defaultMode).toBe('acceptEdits');
    expect(trustedModes(place({ policy: mode('acceptEdits'), user: mode('plan') })).defaultMode).toBe(
      'acceptEdits',
    );
  });

  it('lets the project narrow: plan or dontAsk in .claude/settings.json beat a wider user default', () => {
    expect(trustedModes(place({ project: mode('plan'), user: mode('bypassPermissions') })).defaultMode).toBe(
      'plan',
    );
    expect(trustedModes(place({ local: mode('dontAsk') })).defaultMode).toBe('dontAsk');
  });

  it('disableBypassPermissionsMode in the policy makes bypass unavailable, even from the user or the CLI', () => {
    const loc = place({
      policy: { permissions: { disableBypassPermissionsMode: 'disable' } },
      user: mode('bypassPermissions'),
    });
    const modes = trustedModes(loc);
    expect(modes.bypass.available).toBe(false);
    expect(modes.defaultMode).toBe('default');
    expect(modes.problems.join('\n')).toContain('disableBypassPermissionsMode');
    const cli = trustedModes({ ...loc, cli: { permissionMode: 'bypassPermissions' } });
    expect(cli.defaultMode).toBe('default');
    // Control: without the policy key, the user's bypass and the CLI flag apply.
    const open = place({ user: mode('bypassPermissions') });
    expect(trustedModes(open).bypass.available).toBe(true);
    expect(trustedModes({ ...open, cli: { permissionMode: 'plan' } }).defaultMode).toBe('plan');
  });

  it('a policy that cannot be read leaves bypass unavailable (it might have disabled it)', () => {
    const modes = trustedModes(place({ policy: '{ not json', user: mode('bypassPermissions') }));
    expect(modes.bypass.available).toBe(false);
    expect(modes.defaultMode).toBe('default');
  });
});

describe('the mode a reopened session comes back in', () => {
  const trusted = (defaultMode: PermissionMode): TrustedModes => ({
    defaultMode,
    bypass: { available: true },
    problems: [],
  });

  it('never wider than a new session would start in: bypass and acceptEdits fall back', () => {
    expect(restoredMode('bypassPermissions', trusted('default'))).toBe('default');
    expect(restoredMode('acceptEdits', trusted('default'))).toBe('default');
    expect(restoredMode('bypassPermissions', trusted('acceptEdits'))).toBe('acceptEdits');
    expect(restoredMode('default', trusted('plan'))).toBe('plan');
  });

  it('keeps a narrower or equal mode: plan and dontAsk survive, and so does what the person configured', () => {
    expect(restoredMode('plan', trusted('default'))).toBe('plan');
    expect(restoredMode('dontAsk', trusted('default'))).toBe('dontAsk');
    expect(restoredMode('acceptEdits', trusted('bypassPermissions'))).toBe('acceptEdits');
    expect(restoredMode('bypassPermissions', trusted('bypassPermissions'))).toBe('bypassPermissions');
    // plan and dontAsk are not ordered against each other: the configured one wins.
    expect(restoredMode('plan', trusted('dontAsk'))).toBe('dontAsk');
  });
});
