import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { loadCustomCommands } from '../commands/load-commands';
import { collectHooks } from '../hooks/sources';
import { loadSkills } from '../skills/load-skills';
import { loadPluginComponents } from './load-plugins';
import { parsePluginManifest } from './manifest';
import { installPlugin, listPlugins, registryFile, setPluginEnabled, uninstallPlugin } from './registry';

function put(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** A plugin folder in Claude Code's layout, with one skill and one agent. */
function plugin(name: string, manifest: object = {}) {
  const root = tempDir(`carapace-plugin-${name}-`);
  put(
    path.join(root, '.claude-plugin', 'plugin.json'),
    JSON.stringify({ name, version: '1.0.0', ...manifest }),
  );
  put(
    path.join(root, 'skills', 'lint', 'SKILL.md'),
    `---\ndescription: ${name} lints\nallowed-tools: Bash(npm run lint)\n---\nRun the linter.\n`,
  );
  put(
    path.join(root, 'agents', 'checker.md'),
    '---\nname: checker\ndescription: checks things\ntools: Read, Grep\npermissionMode: bypassPermissions\n---\nYou check.\n',
  );
  return root;
}

describe('parsePluginManifest', () => {
  it('reads name, version and component paths, refusing paths that leave the plugin', () => {
    expect(
      parsePluginManifest('{"name":"tools","skills":["./extra-skills","./extra-skills/"],"agents":"./more"}'),
    ).toEqual({
      ok: true,
      manifest: expect.objectContaining({
        name: 'tools',
        version: null,
        skills: ['extra-skills', 'extra-skills/'],
        agents: ['more'],
      }),
    });
    const bad = parsePluginManifest('{"name":"Bad Name","skills":["./../../etc"],"agents":["/abs"]}');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.message).toContain('must be kebab-case');
      expect(bad.message).toContain('leads outside the plugin');
      expect(bad.message).toContain('must be paths starting with ./');
    }
    expect(parsePluginManifest('{nope')).toMatchObject({
      ok: false,
      message: expect.stringContaining('not valid JSON'),
    });
  });
});

describe('plugin registry', () => {
  it('installs from a local folder, enables, disables and uninstalls, leaving the folder alone', () => {
    const home = tempDir('carapace-plugins-home-');
    const root = plugin('tools');
    const installed = installPlugin(home, root, new Date('2026-12-06T00:00:00Z'));
    const copy = path.join(home, 'plugins', 'tools');
    expect(installed).toEqual({
      name: 'tools',
      folder: copy,
      source: realpathSync(root),
      enabled: true,
      installedAt: '2026-12-06T00:00:00.000Z',
    });
    expect(setPluginEnabled(home, 'tools', false).enabled).toBe(false);
    expect(listPlugins(home).plugins).toEqual([{ ...installed, enabled: false }]);
    // The copy is the plugin now: an edit to the original changes nothing until installed again.
    expect(readFileSync(path.join(copy, 'skills', 'lint', 'SKILL.md'), 'utf8')).toContain('Run the linter.');
    uninstallPlugin(home, 'tools');
    expect(listPlugins(home)).toEqual({ plugins: [], problem: null });
    expect(existsSync(copy)).toBe(false);
    expect(readFileSync(path.join(root, '.claude-plugin', 'plugin.json'), 'utf8')).toContain('"tools"');
  });

  it('refuses a folder that is no plugin, a broken or 50 MB manifest, and a name taken by another folder', () => {
    const home = tempDir('carapace-plugins-home-');
    expect(() => installPlugin(home, tempDir('carapace-empty-'))).toThrow(
      /is not a plugin: its \.claude-plugin\/plugin\.json/,
    );
    const broken = tempDir('carapace-broken-');
    put(path.join(broken, '.claude-plugin', 'plugin.json'), '{"name": 5}');
    expect(() => installPlugin(home, broken)).toThrow(expect.objectContaining({ code: 'INVALID_MANIFEST' }));
    const huge = tempDir('carapace-huge-');
    truncateSync(put(path.join(huge, '.claude-plugin', 'plugin.json'), '{}'), 50 * 1024 * 1024);
    expect(() => installPlugin(home, huge)).toThrow(/is larger than/);
    // A link out of the folder, a FIFO, too many bytes: refused, and nothing of the copy is left.
    const linked = plugin('linked');
    symlinkSync('/etc/passwd', path.join(linked, 'skills', 'passwd'));
    expect(() => installPlugin(home, linked)).toThrow(
      /is a link leading outside the plugin \(to \/etc\/passwd\)/,
    );
    const fifo = plugin('fifo');
    execFileSync('mkfifo', [path.join(fifo, 'pipe')]);
    expect(() => installPlugin(home, fifo)).toThrow(/not a regular file, folder or link/);
    const big = plugin('big');
    truncateSync(put(path.join(big, 'blob.bin'), ''), 60 * 1024 * 1024);
    expect(() => installPlugin(home, big)).toThrow(/larger than 50 MB/);
    expect(readdirSync(path.join(home, 'plugins'))).toEqual([]);
    // A link inside the plugin is kept, pointing into the copy.
    const inner = plugin('inner');
    symlinkSync(path.join(inner, 'skills', 'lint'), path.join(inner, 'skills', 'lint-again'));
    const copied = installPlugin(home, inner).folder;
    expect(realpathSync(path.join(copied, 'skills', 'lint-again'))).toBe(path.join(copied, 'skills', 'lint'));
    installPlugin(home, plugin('tools'));
    expect(() => installPlugin(home, plugin('tools'))).toThrow(
      expect.objectContaining({ code: 'NAME_TAKEN' }),
    );
    expect(() => setPluginEnabled(home, 'nope', true)).toThrow(
      expect.objectContaining({ code: 'NOT_INSTALLED' }),
    );
  });

  it('never overwrites a plugin list it cannot read', () => {
    const home = tempDir('carapace-plugins-home-');
    put(registryFile(home), '{ "plugins": [ {"name": "mine", "folder": "/x", "enabled": true} ');
    expect(() => installPlugin(home, plugin('tools'))).toThrow(
      expect.objectContaining({ code: 'REGISTRY_UNREADABLE' }),
    );
    expect(readFileSync(registryFile(home), 'utf8')).toContain('"mine"');
    expect(loadPluginComponents(home).problems[0]?.message).toMatch(
      /^Plugins not loaded: .* is not a valid plugin list/,
    );
  });
});

describe('loadPluginComponents', () => {
  it('gives an enabled plugin’s skills (named plugin:skill) and agents (plugin:agent, no permissionMode); none when disabled', () => {
    const home = tempDir('carapace-plugins-home-');
    const project = tempDir('carapace-plugins-project-');
    installPlugin(home, plugin('tools'));
    const c = loadPluginComponents(home);
    expect(c.problems).toEqual([]);
    expect(c.agents).toEqual([
      expect.objectContaining({ name: 'tools:checker', tools: ['Read', 'Grep'], permissionMode: null }),
    ]);
    const skills = loadSkills({ projectRoot: project, home, carapaceHome: home, plugins: c.skillFolders });
    expect(skills.problems).toEqual([]);
    expect(skills.skills.find((s) => s.name === 'tools:lint')).toMatchObject({
      source: 'plugin',
      description: 'tools lints',
      allowedTools: ['Bash(npm run lint)'],
    });
    setPluginEnabled(home, 'tools', false);
    expect(loadPluginComponents(home)).toEqual({ skillFolders: [], agents: [], hooks: [], problems: [] });
  });

  it('reads nothing a plugin links to outside its folder, and reports a plugin whose folder is gone', () => {
    const home = tempDir('carapace-plugins-home-');
    const project = tempDir('carapace-plugins-project-');
    const outside = tempDir('carapace-plugins-outside-');
    put(path.join(outside, 'stolen', 'SKILL.md'), '---\ndescription: STOLEN\n---\nsecret\n');
    put(path.join(outside, 'spy.md'), '---\nname: spy\ndescription: SPY\n---\nspy\n');
    // Links made in the installed copy afterwards (install itself refuses them).
    const root = installPlugin(home, plugin('tools', { skills: './linked-skills' })).folder;
    symlinkSync(outside, path.join(root, 'linked-skills'));
    symlinkSync(path.join(outside, 'stolen'), path.join(root, 'skills', 'stolen'));
    symlinkSync(path.join(outside, 'spy.md'), path.join(root, 'agents', 'spy.md'));
    const c = loadPluginComponents(home);
    expect(c.agents.map((a) => a.name)).toEqual(['tools:checker']);
    expect(c.problems).toEqual([
      { file: path.join(root, 'linked-skills'), message: 'Not read: it leads outside the plugin.' },
      { file: path.join(root, 'agents', 'spy.md'), message: expect.stringContaining('not a regular file') },
    ]);
    const skills = loadSkills({ projectRoot: project, home, carapaceHome: home, plugins: c.skillFolders });
    expect(skills.skills.map((s) => s.name)).not.toContain('tools:stolen');
    expect(skills.problems).toEqual([
      {
        file: path.join(root, 'skills', 'stolen'),
        message: expect.stringContaining('a link leading outside the plugin'),
      },
    ]);

    const gone = tempDir('carapace-plugins-gone-');
    installPlugin(home, plugin('other'));
    const list = JSON.parse(readFileSync(registryFile(home), 'utf8')) as {
      plugins: { name: string; folder: string }[];
    };
    for (const p of list.plugins) if (p.name === 'other') p.folder = path.join(gone, 'missing');
    writeFileSync(registryFile(home), JSON.stringify(list));
    expect(loadPluginComponents(home).problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(/^Plugin "other" not loaded: .* cannot be read/),
    );
  });
});

describe('plugin hooks and commands', () => {
  it('reads hooks/hooks.json with ${CLAUDE_PLUGIN_ROOT} put in, refuses a hooks path leaving the plugin, and names commands plugin:command', () => {
    const home = tempDir('carapace-plugins-home-');
    const project = tempDir('carapace-plugins-project-');
    const outside = tempDir('carapace-plugins-outside-');
    put(
      path.join(outside, 'evil.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'evil' }] }] } }),
    );
    const bad = plugin('bad', { hooks: './../evil.json' });
    expect(() => installPlugin(home, bad)).toThrow(
      /hooks entry "\.\/\.\.\/evil\.json" leads outside the plugin/,
    );
    const source = plugin('tools', { hooks: './hooks/more.json' });
    put(path.join(source, 'hooks', 'more.json'), '{"hooks": {"Stop": "nope"}}');
    put(
      path.join(source, 'hooks', 'hooks.json'),
      JSON.stringify({
        description: 'x',
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/check.sh' }] },
          ],
          Nope: [],
        },
      }),
    );
    put(path.join(source, 'commands', 'git', 'ship.md'), '---\ndescription: Ships\n---\nShip it\n');
    const root = installPlugin(home, source).folder;
    symlinkSync(path.join(outside, 'evil.json'), path.join(root, 'commands', 'stolen.md'));
    const c = loadPluginComponents(home);
    expect(c.hooks).toEqual([
      expect.objectContaining({
        event: 'PreToolUse',
        matcher: 'Bash',
        source: 'plugin',
        handler: expect.objectContaining({
          command: `export CLAUDE_PLUGIN_ROOT='${root}'; ${root}/check.sh`,
        }),
      }),
    ]);
    expect(c.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('hooks.Nope: unknown event'),
      expect.stringContaining('hooks.Stop'),
    ]);
    const commands = loadCustomCommands({ projectRoot: project, home, carapaceHome: home });
    expect(commands.commands.map((x) => x.name)).toEqual(['tools:git:ship']);
    expect(commands.problems).toEqual([
      { file: path.join(root, 'commands', 'stolen.md'), message: expect.stringContaining('leading outside') },
    ]);
    setPluginEnabled(home, 'tools', false);
    expect(loadCustomCommands({ projectRoot: project, home, carapaceHome: home }).commands).toEqual([]);
  });
});

describe('plugin hooks among the settings sources', () => {
  it('come after the user’s, run without trust, and are turned off by disableAllHooks', () => {
    const home = tempDir('carapace-plugins-home-');
    const project = tempDir('carapace-plugins-project-');
    const source = plugin('tools');
    put(
      path.join(source, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo plugin' }] }] } }),
    );
    installPlugin(home, source);
    const settings = path.join(home, 'settings.json');
    put(
      settings,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } }),
    );
    const locations = { home, projectRoot: project, policyFile: path.join(home, 'no-policy.json') };
    const collected = () =>
      collectHooks({ locations, projectHooksAllowed: false, plugins: loadPluginComponents(home) });
    expect(
      collected().hooks.map((h) => [h.source, h.handler.type === 'command' && h.handler.command]),
    ).toEqual([
      ['user', 'echo user'],
      ['plugin', expect.stringMatching(/^export CLAUDE_PLUGIN_ROOT='.*'; echo plugin$/)],
    ]);
    put(settings, JSON.stringify({ disableAllHooks: true }));
    expect(collected().hooks).toEqual([]);
  });
});
