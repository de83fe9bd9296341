import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RecordedRequest } from '../devtools/scripted-api/request';
import { scenarioResponder } from '../devtools/scripted-api/responder';
import { parseScenario, type ScenarioInput } from '../devtools/scripted-api/scenario';
import { startScriptedApi } from '../devtools/scripted-api/server';
import { TrustStore, trustFile } from '../harness/permissions/trust';
import { installPlugin, pluginDataDir, setPluginEnabled, uninstallPlugin } from '../harness/plugins/registry';
import { text, toolUse } from '../test-support/engine';
import { tempDir } from '../test-support/temp';
import { capturePrint, printEnv } from '../test-support/print-run';

/*
 * Plugins through `carapace -p` against the scripted Messages API: an installed, enabled plugin's
 * skill is offered, its command expands and its hook runs (with ${CLAUDE_PLUGIN_ROOT} put in); a
 * disabled plugin brings none of it; a plugin whose plugin.json is broken is reported and the run
 * goes on.
 */

async function setup(steps: ScenarioInput['steps'] = []) {
  const respond = scenarioResponder(
    parseScenario({ steps: [...steps, { times: true, reply: { content: [text('Done.')] } }] }),
  );
  const api = await startScriptedApi({ scenario: respond });
  onTestFinished(() => api.close());
  const home = tempDir('carapace-plugins-home-');
  const project = realpathSync(tempDir('carapace-plugins-project-'));
  const env = printEnv(home, api.url);
  const run = async (prompt: string, extra: string[] = []) => {
    const { code, out, err } = await capturePrint(
      ['-p', prompt, ...extra, '--model', 'claude-sonnet-4-5', '--output-format', 'json'],
      { env, cwd: project },
    );
    return { code, out, stderr: err };
  };
  return { api, home, project, run };
}

function put(file: string, body: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
}

/** A plugin folder with a skill, a command and a UserPromptSubmit hook, in Claude Code's layout. */
function toolsPlugin(): string {
  // A space in the folder's name: ${CLAUDE_PLUGIN_ROOT} must work inside the hook's quotes.
  const root = path.join(realpathSync(tempDir('carapace-plugin-')), 'my tools');
  put(path.join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'tools', version: '1.0.0' }));
  put(
    path.join(root, 'skills', 'lint', 'SKILL.md'),
    '---\ndescription: Lints the project.\n---\nLINT-BODY\n',
  );
  put(
    path.join(root, 'commands', 'hello.md'),
    '---\ndescription: Says hello\n---\nPLUGIN-COMMAND-BODY greets $ARGUMENTS from ${CLAUDE_PLUGIN_ROOT}\n',
  );
  put(path.join(root, 'context.txt'), 'PLUGIN-HOOK-CONTEXT');
  // A script the hook starts reads the plugin's folder from its environment.
  put(path.join(root, 'scripts', 'where.sh'), 'printf "ROOT-FROM-ENV=%s" "$CLAUDE_PLUGIN_ROOT"\n');
  put(
    path.join(root, 'hooks', 'hooks.json'),
    JSON.stringify({
      description: 'adds context',
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: 'command', command: 'cat "${CLAUDE_PLUGIN_ROOT}/context.txt"' }] },
          { hooks: [{ type: 'command', command: 'sh "$CLAUDE_PLUGIN_ROOT/scripts/where.sh"' }] },
        ],
      },
    }),
  );
  return root;
}

const DEMO_SERVER = path.resolve(__dirname, '../harness/mcp/fixtures/demo-server.mjs');

const body = (r: RecordedRequest | undefined) => JSON.stringify(r?.body ?? null);
const skillTool = (r: RecordedRequest | undefined) =>
  (r?.body.tools as { name: string; description?: string }[] | undefined)?.find((t) => t.name === 'Skill')
    ?.description ?? '';

describe('carapace -p with plugins', () => {
  it('offers an enabled plugin’s skill, expands its command (plugin:command) and runs its hook; disabled, none of it', async () => {
    const s = await setup();
    installPlugin(s.home, toolsPlugin());

    const on = await s.run('/tools:hello Ada');
    expect(on.code).toBe(0);
    expect(on.stderr).toBe('');
    const first = s.api.requests[0];
    // ${CLAUDE_PLUGIN_ROOT} in a plugin's command is its (copied) folder, as Claude Code fills it.
    expect(body(first)).toContain(
      `PLUGIN-COMMAND-BODY greets Ada from ${path.join(s.home, 'plugins', 'tools')}`,
    );
    expect(body(first)).toContain('PLUGIN-HOOK-CONTEXT');
    expect(body(first)).toContain(`ROOT-FROM-ENV=${path.join(s.home, 'plugins', 'tools')}`);
    expect(skillTool(first)).toContain('- tools:lint: Lints the project.');

    setPluginEnabled(s.home, 'tools', false);
    const before = s.api.requests.length;
    const plain = await s.run('hello there');
    expect(plain.code).toBe(0);
    const off = s.api.requests[before];
    expect(body(off)).toContain('hello there');
    expect(body(off)).not.toContain('PLUGIN-HOOK-CONTEXT');
    expect(skillTool(off)).not.toContain('tools:lint');
    const command = await s.run('/tools:hello Ada');
    expect(command.code).not.toBe(0);
    expect(command.out + command.stderr).toContain('Unknown slash command: /tools:hello');
    // Nothing of the disabled plugin's command was sent.
    expect(s.api.requests.slice(before).map(body).join('')).not.toContain('PLUGIN-COMMAND-BODY');
  });

  it('reports a plugin whose plugin.json was broken after installing, and the run goes on', async () => {
    const s = await setup();
    // Installing copies the folder; the copy is what is read (and here broken).
    const root = installPlugin(s.home, toolsPlugin()).folder;
    writeFileSync(path.join(root, '.claude-plugin', 'plugin.json'), '{"name": "tools", ');
    const r = await s.run('hello there');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ result: 'Done.' });
    expect(r.stderr).toContain('Plugin "tools" not loaded:');
    expect(r.stderr).toContain('plugin.json is not valid JSON');
    expect(body(s.api.requests[0])).not.toContain('PLUGIN-HOOK-CONTEXT');
  });

  it('starts an enabled plugin’s MCP server (${CLAUDE_PLUGIN_ROOT} filled in) and the model calls mcp__plugin_tools_echo__echo', async () => {
    const s = await setup([
      {
        when: { lastUserText: 'echo it' },
        reply: {
          content: [toolUse('mcp__plugin_tools_echo__echo', { text: 'from the plugin' })],
          stop_reason: 'tool_use',
        },
      },
    ]);
    const root = toolsPlugin();
    put(
      path.join(root, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          echo: {
            command: 'node',
            args: [DEMO_SERVER],
            env: { DEMO_CALLS: '${CLAUDE_PLUGIN_ROOT}/calls.jsonl' },
          },
        },
      }),
    );
    const installed = installPlugin(s.home, root).folder;
    const r = await s.run('echo it', ['--allowedTools', 'mcp__plugin_tools_echo']);
    expect(r.code).toBe(0);
    expect(body(s.api.requests[1])).toContain('echo: from the plugin');
    expect(readFileSync(path.join(installed, 'calls.jsonl'), 'utf8')).toContain('"text":"from the plugin"');

    setPluginEnabled(s.home, 'tools', false);
    const before = s.api.requests.length;
    await s.run('hello there');
    expect(body(s.api.requests[before])).not.toContain('mcp__plugin_tools_echo__echo');
  });

  it('honours enabledPlugins: the user’s false turns a plugin off; a project’s entry counts only once the folder’s trust accepts it', async () => {
    const s = await setup();
    installPlugin(s.home, toolsPlugin());
    const offered = async () => {
      const before = s.api.requests.length;
      const r = await s.run('hello there');
      expect(r.code).toBe(0);
      const sent = s.api.requests[before];
      const on = skillTool(sent).includes('tools:lint');
      // The hook goes with the skill: one state for the whole plugin.
      expect(body(sent).includes('PLUGIN-HOOK-CONTEXT')).toBe(on);
      return { on, stderr: r.stderr };
    };
    expect((await offered()).on).toBe(true);

    // The user's settings outrank Carapace's switch (which still says enabled).
    const userSettings = path.join(s.home, 'settings.json');
    put(userSettings, JSON.stringify({ enabledPlugins: { 'tools@local': false } }));
    expect((await offered()).on).toBe(false);
    rmSync(userSettings);

    // An untrusted repository cannot switch on a plugin the person switched off…
    setPluginEnabled(s.home, 'tools', false);
    const projectSettings = path.join(s.project, '.claude', 'settings.json');
    put(projectSettings, JSON.stringify({ enabledPlugins: { 'tools@local': true } }));
    const untrusted = await offered();
    expect(untrusted.on).toBe(false);
    expect(untrusted.stderr).toContain('Turns on plugin tools@local (if you installed it)');
    // …and once the person trusts that entry, it does.
    new TrustStore(trustFile(s.home)).trustCurrent(s.project);
    expect((await offered()).on).toBe(true);

    // A trusted project's false turns the plugin off; untrusted, the same entry changes nothing.
    setPluginEnabled(s.home, 'tools', true);
    put(projectSettings, JSON.stringify({ enabledPlugins: { 'tools@local': false } }));
    expect((await offered()).on).toBe(true);
    new TrustStore(trustFile(s.home)).trustCurrent(s.project);
    expect((await offered()).on).toBe(false);

    // A setting never installs anything: an entry for a plugin that is not installed does nothing.
    put(projectSettings, JSON.stringify({ enabledPlugins: { 'other@local': true, 'tools@local': false } }));
    new TrustStore(trustFile(s.home)).trustCurrent(s.project);
    expect((await offered()).on).toBe(false);
  });

  it('gives a hook ${CLAUDE_PLUGIN_DATA}: its folder keeps what the hook wrote across disable, enable and a reinstall, and goes with uninstall unless kept', async () => {
    const s = await setup();
    const root = toolsPlugin();
    put(
      path.join(root, 'hooks', 'hooks.json'),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                {
                  type: 'command',
                  // The placeholder put in, and the variable exported to the script.
                  command:
                    'echo run >> "${CLAUDE_PLUGIN_DATA}/runs.txt"; printf "DATA-RUNS=%s" "$(wc -l < "$CLAUDE_PLUGIN_DATA/runs.txt" | tr -d " ")"',
                },
              ],
            },
          ],
        },
      }),
    );
    installPlugin(s.home, root);
    const data = pluginDataDir(s.home, 'tools');
    expect(data).toBe(path.join(s.home, 'plugins', 'data', 'tools'));
    const runs = async () => {
      const before = s.api.requests.length;
      const r = await s.run('hello there');
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      return /DATA-RUNS=(\d+)/.exec(body(s.api.requests[before]))?.[1] ?? null;
    };
    expect(await runs()).toBe('1');
    expect(readFileSync(path.join(data, 'runs.txt'), 'utf8')).toBe('run\n');
    setPluginEnabled(s.home, 'tools', false);
    expect(await runs()).toBeNull();
    setPluginEnabled(s.home, 'tools', true);
    expect(await runs()).toBe('2');
    // Installing again (an update) replaces the copy, not the data.
    installPlugin(s.home, root);
    expect(await runs()).toBe('3');
    uninstallPlugin(s.home, 'tools', { keepData: true });
    expect(readFileSync(path.join(data, 'runs.txt'), 'utf8')).toBe('run\nrun\nrun\n');
    installPlugin(s.home, root);
    expect(await runs()).toBe('4');
    uninstallPlugin(s.home, 'tools');
    expect(existsSync(data)).toBe(false);
  });

  it('never lets a repository’s enabledPlugins key drive the terminal through the untrusted notice or a problem', async () => {
    const s = await setup();
    installPlugin(s.home, toolsPlugin());
    put(
      path.join(s.project, '.claude', 'settings.json'),
      JSON.stringify({
        enabledPlugins: { '\u001b]52;c;cHduZWQ=\u0007tools@local': true, '\u001b[2Jx@local': 'yes' },
      }),
    );
    const r = await s.run('hello there');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Turns on plugin');
    expect(r.stderr).not.toContain('\u001b');
  });
});
