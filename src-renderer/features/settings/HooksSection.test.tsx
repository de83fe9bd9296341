import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookListEntry, HooksView } from '@shared/ipc/contract/hooks';
import { HooksList } from './HooksSection';

afterEach(cleanup);

const hook = (over: Partial<HookListEntry>): HookListEntry => ({
  source: 'user',
  plugin: null,
  file: '/home/me/.carapace/settings.json',
  event: 'PreToolUse',
  matcher: '',
  if: null,
  type: 'command',
  target: 'true',
  timeoutS: 600,
  timeoutDefault: true,
  async: false,
  runs: true,
  whyNot: null,
  ...over,
});

const files: HooksView['files'] = [
  { source: 'policy', path: '/etc/carapace/managed-settings.json', exists: false },
  { source: 'local', path: '/p/.claude/settings.local.json', exists: false },
  { source: 'project', path: '/p/.claude/settings.json', exists: true },
  { source: 'user', path: '/home/me/.carapace/settings.json', exists: true },
];

const view = (over: Partial<HooksView>): HooksView => ({
  projectId: 'p',
  projectRoot: '/p',
  files,
  hooks: [],
  problems: [],
  narrowedBy: null,
  ...over,
});

describe('HooksList', () => {
  it('groups hooks by source then event, with matcher, if, type, target, timeout, async and whether each runs', () => {
    render(
      <HooksList
        view={view({
          hooks: [
            hook({
              source: 'project',
              file: '/p/.claude/settings.json',
              event: 'PostToolUse',
              matcher: 'Edit|Write',
              target: 'npm run lint',
              async: true,
              runs: false,
              whyNot: 'Not accepted: .claude/settings.json is the project’s own file',
            }),
            hook({
              event: 'PreToolUse',
              matcher: 'Bash',
              if: 'Bash(git *)',
              target: './check.sh',
              timeoutS: 5,
              timeoutDefault: false,
            }),
            hook({ event: 'Stop', type: 'http', target: 'https://example.test/stop' }),
            hook({ event: 'PreToolUse', target: 'second.sh' }),
          ],
        })}
      />,
    );
    const project = screen.getByRole('group', { name: 'Project settings' });
    expect(within(project).getByText('/p/.claude/settings.json')).toBeTruthy();
    expect(within(project).getByRole('heading', { level: 5, name: 'PostToolUse' })).toBeTruthy();
    const lint = within(project).getByText('npm run lint').closest('li')!;
    expect(lint.textContent).toContain('Edit|Write');
    expect(lint.textContent).toContain('Async');
    expect(lint.textContent).toContain('Does not run. Not accepted: .claude/settings.json');

    const user = screen.getByRole('group', { name: 'User settings' });
    // Events in order of first appearance, the two PreToolUse hooks under one heading.
    expect(
      within(user)
        .getAllByRole('heading', { level: 5 })
        .map((h) => h.textContent),
    ).toEqual(['PreToolUse', 'Stop']);
    const check = within(user).getByText('./check.sh').closest('li')!;
    expect(within(check).getByText('Bash', { selector: 'code' })).toBeTruthy();
    expect(within(check).getByText('Bash(git *)')).toBeTruthy();
    expect(check.textContent).toContain('5 s');
    expect(check.textContent).not.toContain('(default)');
    expect(check.textContent).toContain('Runs');
    const stop = within(user).getByText('https://example.test/stop').closest('li')!;
    expect(within(stop).getByText('HTTP')).toBeTruthy();
    expect(stop.textContent).toContain('600 s (default)');
    expect(stop.textContent).toContain('every');

    // A source's missing file is named, so a person knows where to add one.
    const local = screen.getByRole('group', { name: 'Local project settings' });
    expect(local.textContent).toContain('(no such file)');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows disableAllHooks as a banner and invalid entries as errors with their file', () => {
    render(
      <HooksList
        view={view({
          narrowedBy: 'disableAllHooks in /home/me/.carapace/settings.json',
          problems: [
            { file: '/home/me/.carapace/settings.json', message: 'hooks.Nope: unknown event; it is ignored' },
          ],
          hooks: [hook({ runs: false, whyNot: 'Off: disableAllHooks in /home/me/.carapace/settings.json' })],
        })}
      />,
    );
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toContain(
      'Hooks are narrowed: disableAllHooks in /home/me/.carapace/settings.json',
    );
    expect(banner.textContent).toContain('Only the managed policy’s hooks run.');
    const problems = screen.getByRole('group', { name: 'Hook problems' });
    expect(problems.textContent).toContain(
      'Error in /home/me/.carapace/settings.json: hooks.Nope: unknown event; it is ignored',
    );
    expect(screen.getByText(/Does not run\. Off: disableAllHooks/)).toBeTruthy();
  });

  it('lists an enabled plugin’s hooks under "Plugin <name>" with the file each is written in, not under a settings source', () => {
    const hooksFile = '/home/me/.carapace/plugins/tools/hooks/hooks.json';
    render(
      <HooksList
        view={view({
          hooks: [
            hook({ event: 'Stop', target: 'user-stop.sh' }),
            hook({
              source: 'plugin',
              plugin: 'tools',
              file: hooksFile,
              event: 'UserPromptSubmit',
              target: 'cat context.txt',
            }),
            hook({
              source: 'plugin',
              plugin: 'lint',
              file: '/home/me/.carapace/plugins/lint/.claude-plugin/plugin.json',
              event: 'PostToolUse',
              target: 'lint.sh',
              runs: false,
              whyNot: 'Off: disableAllHooks in /home/me/.carapace/settings.json',
            }),
          ],
        })}
      />,
    );
    const tools = screen.getByRole('group', { name: 'Plugin tools' });
    expect(within(tools).getByText(hooksFile)).toBeTruthy();
    expect(within(tools).getByRole('heading', { level: 5, name: 'UserPromptSubmit' })).toBeTruthy();
    expect(within(tools).getByText('cat context.txt').closest('li')?.textContent).toContain('Runs');
    const lint = screen.getByRole('group', { name: 'Plugin lint' });
    expect(within(lint).getByText('lint.sh').closest('li')?.textContent).toContain('Does not run. Off:');
    // Not listed among the user's hooks.
    const user = screen.getByRole('group', { name: 'User settings' });
    expect(within(user).queryByText('cat context.txt')).toBeNull();
    expect(within(user).getByText('user-stop.sh')).toBeTruthy();
  });

  it('the policy’s own disableAllHooks: no hook runs', () => {
    render(<HooksList view={view({ narrowedBy: 'disableAllHooks in the managed policy' })} />);
    expect(screen.getByRole('alert').textContent).toContain('No hook runs.');
    expect(screen.getByText(/No hooks configured/)).toBeTruthy();
  });
});
