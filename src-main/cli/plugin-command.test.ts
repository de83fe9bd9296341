import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp';
import { parseArgs, UsageError } from './args';
import { runPlugin } from './plugin-command';

function cli() {
  const home = tempDir('carapace-plugin-cli-home-');
  const cwd = tempDir('carapace-plugin-cli-cwd-');
  const run = (...argv: string[]) => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c: Buffer) => (out += c.toString()));
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = runPlugin(argv, { stdout, stderr, env: { CARAPACE_HOME: home }, cwd });
    return { code, out, err };
  };
  const plugin = (folder: string, manifest: object) => {
    mkdirSync(path.join(cwd, folder, '.claude-plugin'), { recursive: true });
    writeFileSync(path.join(cwd, folder, '.claude-plugin', 'plugin.json'), JSON.stringify(manifest));
    return path.join(cwd, folder);
  };
  return { home, run, plugin };
}

describe('carapace plugin', () => {
  it('is its own command', () => {
    expect(parseArgs(['plugin', 'install', 'x'])).toEqual({ kind: 'plugin', argv: ['install', 'x'] });
  });

  it('installs from a folder relative to the working folder, lists, disables, enables and uninstalls', () => {
    const c = cli();
    const folder = c.plugin('my\u001b[31mtools', { name: 'tools' });
    expect(c.run('list').out).toBe(
      'No plugins installed. Install one with: carapace plugin install FOLDER\n',
    );
    const installed = c.run('install', 'my\u001b[31mtools');
    expect(installed.code).toBe(0);
    // A control sequence in the folder's name never reaches the terminal.
    expect(installed.out).toBe(`Installed tools from ${folder.replace('\u001b[31m', '')} (enabled).\n`);
    expect(c.run('disable', 'tools').out).toBe('tools is disabled.\n');
    expect(JSON.parse(c.run('list', '--json').out)).toEqual([
      // Carapace's copy is what is loaded; the folder it came from is its source.
      expect.objectContaining({ name: 'tools', enabled: false, source: folder }),
    ]);
    expect(c.run('enable', 'tools').out).toBe('tools is enabled.\n');
    expect(c.run('list').out).toMatch(/^tools {2}enabled {2}/);
    expect(c.run('uninstall', 'tools')).toEqual({
      code: 0,
      out: 'Uninstalled tools (its copy and its data folder are removed; the folder it came from is left as it was).\n',
      err: '',
    });
  });

  it('keeps the data folder with --keep-data, and says when a settings file outranks the switch', () => {
    const c = cli();
    c.plugin('tools', { name: 'tools' });
    c.run('install', 'tools');
    const data = path.join(c.home, 'plugins', 'data', 'tools');
    mkdirSync(data, { recursive: true });
    writeFileSync(path.join(data, 'state.json'), '{}');
    writeFileSync(
      path.join(c.home, 'settings.json'),
      JSON.stringify({ enabledPlugins: { 'tools@local': false } }),
    );
    expect(c.run('enable', 'tools').out).toBe(
      `tools is enabled.\nNote: here it stays off: Off by enabledPlugins in ${path.join(c.home, 'settings.json')}.\n`,
    );
    expect(c.run('list').out).toMatch(
      /^tools {2}disabled {2}.*\(Off by enabledPlugins in .*settings\.json\)\n$/,
    );
    expect(JSON.parse(c.run('list', '--json').out)).toEqual([
      expect.objectContaining({
        name: 'tools',
        enabled: false,
        switch: true,
        state: expect.objectContaining({ source: 'user' }),
      }),
    ]);
    expect(c.run('uninstall', 'tools', '--keep-data').out).toBe(
      'Uninstalled tools (its copy is removed, its data folder kept; the folder it came from is left as it was).\n',
    );
    expect(existsSync(path.join(data, 'state.json'))).toBe(true);
  });

  it('refuses a folder that is no plugin or has a broken manifest, with the reason and exit 1', () => {
    const c = cli();
    mkdirSync(path.join(tempDir('carapace-x-'), 'empty'), { recursive: true });
    const none = c.run('install', '.');
    expect(none.code).toBe(1);
    expect(none.err).toMatch(
      /^carapace: .* is not a plugin: its \.claude-plugin\/plugin\.json is missing or unreadable\.\n$/,
    );
    c.plugin('bad', { name: 'Not Kebab' });
    expect(c.run('install', 'bad').err).toContain('must be kebab-case');
    expect(c.run('enable', 'nope')).toMatchObject({
      code: 1,
      err: 'carapace: There is no installed plugin "nope".\n',
    });
  });

  it('throws a usage error for an unknown verb or a missing argument', () => {
    const c = cli();
    expect(() => c.run('frobnicate')).toThrow(UsageError);
    expect(() => c.run('install')).toThrow(/needs a FOLDER/);
    expect(() => c.run('enable', 'a', 'b')).toThrow(/takes one argument/);
  });
});
