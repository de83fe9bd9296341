import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewAgentInput } from '@shared/ipc/contract/agent-files';
import { createAgentCatalog } from '../../harness/agents/catalog';
import { withPluginAgents } from '../../harness/plugins/plugin-agents';
import { MAX_AGENT_FILE_BYTES } from '../../harness/agents/load-agents';
import { parseAgentFile } from '../../harness/agents/parse-agent-file';
import { loadPluginComponents } from '../../harness/plugins/load-plugins';
import { installPlugin } from '../../harness/plugins/registry';
import { tempDir } from '../../test-support/temp';
import { AgentFileError } from './agent-file-paths';
import { AgentFilesService } from './agent-files-service';

function agentText(name: string, description: string, extra = '', body = `You are ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;
}

function setup() {
  const project = tempDir('carapace-agents-project-');
  const home = tempDir('carapace-agents-home-');
  const carapaceHome = tempDir('carapace-agents-carapace-');
  const service = new AgentFilesService({
    home,
    carapaceHome,
    plugins: () => loadPluginComponents(carapaceHome),
  });
  const projectAgents = path.join(project, '.claude', 'agents');
  const userAgents = path.join(carapaceHome, 'agents');
  const claudeAgents = path.join(home, '.claude', 'agents');
  return { project, home, carapaceHome, service, projectAgents, userAgents, claudeAgents };
}

function write(dir: string, file: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, file), text);
  return path.join(dir, file);
}

/** The refusal's reason, or a failure naming what happened instead. */
async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AgentFileError) return error.reason;
    throw error;
  }
  throw new Error('not refused');
}

const form = (o: Partial<NewAgentInput> = {}): NewAgentInput => ({
  projectId: 'p',
  scope: 'project',
  name: 'reviewer',
  description: 'Reviews diffs: finds bugs',
  tools: ['Read', 'Grep'],
  model: 'sonnet',
  prompt: 'You review code. REVIEWER-PROMPT',
  ...o,
});

describe('AgentFilesService.list', () => {
  it('lists built-in, project, user and plugin agents with sources, the winner of each name, and broken files', () => {
    const s = setup();
    write(
      s.projectAgents,
      'shared.md',
      agentText('shared', 'Project one', 'color: blue\ntools: Read, Grep\n'),
    );
    write(s.userAgents, 'shared.md', agentText('shared', 'User one'));
    write(s.claudeAgents, 'helper.md', agentText('helper', 'From Claude Code', 'model: haiku\n'));
    // A project file named like a built-in replaces it, as in Claude Code.
    write(s.projectAgents, 'explore.md', agentText('Explore', 'x'));
    write(s.projectAgents, 'mine-explore.md', agentText('explore', 'Lowercase one'));
    write(s.projectAgents, 'broken.md', '---\nname: broken\n---\nno description\n');
    const plugin = tempDir('carapace-agents-plugin-');
    write(path.join(plugin, '.claude-plugin'), 'plugin.json', JSON.stringify({ name: 'kit' }));
    write(path.join(plugin, 'agents'), 'lint.md', agentText('lint', 'Lints'));
    installPlugin(s.carapaceHome, plugin);

    const view = s.service.list(s.project);
    const find = (name: string, source: string) =>
      view.agents.find((a) => a.name === name && a.source === source);

    expect(find('general-purpose', 'built-in')).toMatchObject({ active: true, ref: null, file: null });
    expect(find('shared', 'project')).toMatchObject({
      active: true,
      description: 'Project one',
      tools: ['Read', 'Grep'],
      color: 'blue',
      file: path.join(s.projectAgents, 'shared.md'),
      ref: { folder: 'project', path: 'shared.md' },
    });
    expect(find('shared', 'user')).toMatchObject({
      active: false,
      overriddenBy: path.join(s.projectAgents, 'shared.md'),
      ref: { folder: 'user', path: 'shared.md' },
    });
    expect(find('helper', 'user')).toMatchObject({
      active: true,
      model: 'haiku',
      ref: { folder: 'claude-user', path: 'helper.md' },
    });
    // The "Explore" file is refused by the parser (names are lowercase), so the built-in stays.
    expect(view.problems.find((p) => p.file.endsWith('explore.md'))).toMatchObject({
      ref: { folder: 'project', path: 'explore.md' },
    });
    expect(find('Explore', 'built-in')).toMatchObject({ active: true });
    expect(find('kit:lint', 'plugin')).toMatchObject({ active: true, ref: null });

    const broken = view.problems.find((p) => p.file === path.join(s.projectAgents, 'broken.md'));
    expect(broken).toEqual({
      file: path.join(s.projectAgents, 'broken.md'),
      message: 'Not loaded: description is missing.',
      ref: { folder: 'project', path: 'broken.md' },
    });
    expect(view.folders).toEqual({ project: s.projectAgents, user: s.userAgents });
  });

  it('marks as active exactly the definitions the sessions’ own catalogue offers', () => {
    const s = setup();
    write(s.projectAgents, 'one.md', agentText('one', 'Project'));
    write(path.join(s.projectAgents, 'deep'), 'one.md', agentText('one', 'Project, deeper'));
    write(s.userAgents, 'one.md', agentText('one', 'User'));
    write(s.userAgents, 'two.md', agentText('two', 'Carapace user'));
    write(s.claudeAgents, 'two.md', agentText('two', 'Claude user'));
    write(s.claudeAgents, 'gp.md', agentText('general-purpose', 'Replaces the built-in'));
    const plugin = tempDir('carapace-agents-plugin-');
    write(path.join(plugin, '.claude-plugin'), 'plugin.json', JSON.stringify({ name: 'kit' }));
    write(path.join(plugin, 'agents'), 'one.md', agentText('one', 'Plugin'));
    installPlugin(s.carapaceHome, plugin);

    const view = s.service.list(s.project);
    const catalog = withPluginAgents(
      createAgentCatalog({ projectRoot: s.project, home: s.home, carapaceHome: s.carapaceHome }),
      () => loadPluginComponents(s.carapaceHome),
    )();
    const key = (a: { name: string; file: string | null }) => `${a.name} ${a.file ?? ''}`;
    expect(
      view.agents
        .filter((a) => a.active)
        .map(key)
        .sort(),
    ).toEqual(catalog.agents.map(key).sort());
    expect(view.agents.filter((a) => !a.active).map((a) => [a.name, a.overriddenBy])).toEqual(
      expect.arrayContaining([
        ['general-purpose', path.join(s.claudeAgents, 'gp.md')],
        ['one', path.join(s.projectAgents, 'one.md')],
        ['two', path.join(s.userAgents, 'two.md')],
      ]),
    );
  });

  it('marks a built-in overridden by a file of the same name', () => {
    const s = setup();
    write(s.projectAgents, 'long.md', agentText('long', 'd'.repeat(100_000)));
    expect(s.service.list(s.project).agents.find((a) => a.name === 'long')?.description).toBe(
      `${'d'.repeat(2000)}…`,
    );
    write(s.userAgents, 'gp.md', agentText('general-purpose', 'Mine'));
    const view = s.service.list(s.project);
    expect(view.agents.find((a) => a.name === 'general-purpose' && a.source === 'built-in')).toMatchObject({
      active: false,
      overriddenBy: path.join(s.userAgents, 'gp.md'),
    });
    expect(view.agents.find((a) => a.name === 'general-purpose' && a.source === 'user')?.active).toBe(true);
  });
});

describe('AgentFilesService.create', () => {
  it('writes a file the real parser reads and that a new session’s Agent catalogue offers', async () => {
    const s = setup();
    const { ref, view } = await s.service.create(
      s.project,
      form({ description: 'Reviews: "diffs" --- and more' }),
    );
    expect(ref).toEqual({ folder: 'project', path: 'reviewer.md' });
    const text = readFileSync(path.join(s.projectAgents, 'reviewer.md'), 'utf8');
    const parsed = parseAgentFile(text, { file: 'reviewer.md', source: 'project' });
    expect(parsed.ok && parsed.agent).toMatchObject({
      name: 'reviewer',
      description: 'Reviews: "diffs" --- and more',
      tools: ['Read', 'Grep'],
      model: 'sonnet',
      systemPrompt: 'You review code. REVIEWER-PROMPT',
    });
    expect(view.agents.find((a) => a.name === 'reviewer')).toMatchObject({ source: 'project', active: true });
    const catalog = createAgentCatalog({
      projectRoot: s.project,
      home: s.home,
      carapaceHome: s.carapaceHome,
    });
    expect(catalog().agents.find((a) => a.name === 'reviewer')?.systemPrompt).toBe(
      'You review code. REVIEWER-PROMPT',
    );
    // A second create of the name is refused and the first file kept.
    expect(await refusal(() => s.service.create(s.project, form({ prompt: 'other' })))).toBe('exists');
    expect(readFileSync(path.join(s.projectAgents, 'reviewer.md'), 'utf8')).toBe(text);
  });

  it('writes user agents to Carapace’s own folder, and leaves out tools for "all tools"', async () => {
    const s = setup();
    await s.service.create(s.project, form({ scope: 'user', tools: [' ', ''], model: 'inherit' }));
    const text = readFileSync(path.join(s.userAgents, 'reviewer.md'), 'utf8');
    expect(text).not.toContain('tools:');
    expect(text).toContain('model: inherit');
  });

  it('refuses hostile names with a typed error and writes nothing', async () => {
    const s = setup();
    for (const name of ['a/b', '../evil', 'x..y', 'nul\0x', 'a'.repeat(65), 'Upper', '-dash', '', 'a\\b'])
      expect(await refusal(() => s.service.create(s.project, form({ name })))).toBe('bad-name');
    expect(existsSync(s.projectAgents)).toBe(false);
    // 64 characters is the limit, not past it.
    await s.service.create(s.project, form({ name: 'a'.repeat(64) }));
    expect(readdirSync(s.projectAgents)).toEqual([`${'a'.repeat(64)}.md`]);
  });

  it('refuses to write through a .claude/agents or .claude link that leads out of the project', async () => {
    const s = setup();
    const outside = tempDir('carapace-agents-outside-');
    mkdirSync(path.join(s.project, '.claude'));
    symlinkSync(outside, s.projectAgents);
    expect(await refusal(() => s.service.create(s.project, form()))).toBe('link-outside');
    expect(readdirSync(outside)).toEqual([]);

    const other = setup();
    const elsewhere = tempDir('carapace-agents-elsewhere-');
    symlinkSync(elsewhere, path.join(other.project, '.claude'));
    expect(await refusal(() => other.service.create(other.project, form()))).toBe('link-outside');
    // Nothing was made through the link either (no `agents` folder appeared out there).
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('follows a link that stays inside the project', async () => {
    const s = setup();
    mkdirSync(path.join(s.project, 'shared-agents'));
    mkdirSync(path.join(s.project, '.claude'));
    symlinkSync(path.join(s.project, 'shared-agents'), s.projectAgents);
    await s.service.create(s.project, form());
    expect(existsSync(path.join(s.project, 'shared-agents', 'reviewer.md'))).toBe(true);
  });

  it('refuses a text over the size cap and one the parser refuses', async () => {
    const s = setup();
    const huge = form({ prompt: 'x'.repeat(MAX_AGENT_FILE_BYTES + 1) });
    expect(await refusal(() => s.service.create(s.project, huge))).toBe('too-large');
    expect(await refusal(() => s.service.create(s.project, form({ description: '  ' })))).toBe('invalid');
    expect(existsSync(path.join(s.projectAgents, 'reviewer.md'))).toBe(false);
  });
});

describe('AgentFilesService.save and delete', () => {
  it('saves valid text, and refuses invalid frontmatter leaving the old file unchanged', async () => {
    const s = setup();
    const file = write(s.projectAgents, 'a.md', agentText('a', 'First'));
    const ref = { folder: 'project' as const, path: 'a.md' };
    const { version } = s.service.read(s.project, ref);
    await s.service.save(s.project, ref, agentText('a', 'Second'), version);
    expect(readFileSync(file, 'utf8')).toBe(agentText('a', 'Second'));

    const now = s.service.read(s.project, ref);
    for (const bad of [
      '---\nname: a\ndescription: [unclosed\n---\nbody\n',
      '---\nname: a\n---\nbody\n',
      'no frontmatter at all',
      agentText('a', 'x', 'tools: 3\n'),
    ]) {
      let message = '';
      try {
        await s.service.save(s.project, ref, bad, now.version);
      } catch (error) {
        message = (error as AgentFileError).message;
        expect((error as AgentFileError).reason).toBe('invalid');
      }
      expect(message).toMatch(/^Not loaded: /);
      expect(readFileSync(file, 'utf8')).toBe(agentText('a', 'Second'));
    }
    expect(readdirSync(s.projectAgents)).toEqual(['a.md']);
  });

  it('refuses a save over a file changed since it was opened, and a name another file of the folder has', async () => {
    const s = setup();
    const file = write(s.projectAgents, 'a.md', agentText('a', 'First'));
    write(s.projectAgents, 'b.md', agentText('b', 'Bee'));
    const ref = { folder: 'project' as const, path: 'a.md' };
    const { version } = s.service.read(s.project, ref);
    writeFileSync(file, agentText('a', 'Edited elsewhere'));
    expect(await refusal(() => s.service.save(s.project, ref, agentText('a', 'Mine'), version))).toBe(
      'changed',
    );
    expect(readFileSync(file, 'utf8')).toBe(agentText('a', 'Edited elsewhere'));
    const fresh = s.service.read(s.project, ref).version;
    expect(await refusal(() => s.service.save(s.project, ref, agentText('b', 'Clash'), fresh))).toBe(
      'exists',
    );
  });

  it('refuses paths that climb out, and links as save targets', async () => {
    const s = setup();
    const outside = tempDir('carapace-agents-target-');
    const secret = write(outside, 'secret.md', agentText('secret', 'Outside'));
    mkdirSync(s.projectAgents, { recursive: true });
    symlinkSync(secret, path.join(s.projectAgents, 'link.md'));
    const v = 'x';
    for (const p of ['../settings.json', '../../x.md', 'a/../../x.md', '/etc/passwd.md', 'x.txt', 'a\0.md'])
      expect(await refusal(() => s.service.save(s.project, { folder: 'project', path: p }, 'x', v))).toMatch(
        /bad-path|invalid/,
      );
    expect(await refusal(() => s.service.read(s.project, { folder: 'project', path: 'link.md' }))).toBe(
      'link-outside',
    );
    const valid = agentText('secret', 'Overwritten');
    expect(
      await refusal(() => s.service.save(s.project, { folder: 'project', path: 'link.md' }, valid, v)),
    ).toBe('link');
    expect(readFileSync(secret, 'utf8')).toBe(agentText('secret', 'Outside'));
    // Deleting the link removes the link only.
    await s.service.delete(s.project, { folder: 'project', path: 'link.md' });
    expect(existsSync(path.join(s.projectAgents, 'link.md'))).toBe(false);
    expect(readFileSync(secret, 'utf8')).toBe(agentText('secret', 'Outside'));
  });

  it('deletes a file, and answers not-found for one that is not there', async () => {
    const s = setup();
    write(s.userAgents, 'gone.md', agentText('gone', 'Bye'));
    const view = await s.service.delete(s.project, { folder: 'user', path: 'gone.md' });
    expect(view.agents.some((a) => a.name === 'gone')).toBe(false);
    expect(await refusal(() => s.service.delete(s.project, { folder: 'user', path: 'gone.md' }))).toBe(
      'not-found',
    );
  });

  it('edits files in subfolders, but not through a subfolder link; a FIFO is refused, not opened, and can be deleted', async () => {
    const s = setup();
    const sub = write(
      path.join(s.projectAgents, 'team'),
      'lead.md',
      '---\nname: lead\n---\nno description\n',
    );
    const view = s.service.list(s.project);
    expect(view.problems.find((p) => p.file === sub)?.ref).toEqual({
      folder: 'project',
      path: 'team/lead.md',
    });
    const ref = { folder: 'project' as const, path: 'team/lead.md' };
    await s.service.save(s.project, ref, agentText('lead', 'Leads'), s.service.read(s.project, ref).version);
    expect(s.service.list(s.project).agents.find((a) => a.name === 'lead')?.ref).toEqual(ref);

    mkdirSync(path.join(s.project, 'elsewhere'));
    write(path.join(s.project, 'elsewhere'), 'x.md', agentText('x', 'X'));
    symlinkSync(path.join(s.project, 'elsewhere'), path.join(s.projectAgents, 'linked'));
    const viaLink = { folder: 'project' as const, path: 'linked/x.md' };
    expect(await refusal(() => s.service.save(s.project, viaLink, agentText('x', 'Y'), 'v'))).toBe('link');
    expect(await refusal(() => s.service.delete(s.project, viaLink))).toBe('link');
    expect(existsSync(path.join(s.project, 'elsewhere', 'x.md'))).toBe(true);

    execFileSync('mkfifo', [path.join(s.projectAgents, 'pipe.md')]);
    const pipe = { folder: 'project' as const, path: 'pipe.md' };
    expect(await refusal(() => s.service.read(s.project, pipe))).toBe('unreadable');
    expect(await refusal(() => s.service.save(s.project, pipe, agentText('pipe', 'P'), 'v'))).toBe(
      'bad-path',
    );
    await s.service.delete(s.project, pipe);
    expect(existsSync(path.join(s.project, 'elsewhere'))).toBe(true);
    expect(existsSync(path.join(s.projectAgents, 'pipe.md'))).toBe(false);
  });

  it('refuses to write through a user agents folder that links out of Carapace’s folder', async () => {
    const s = setup();
    const outside = tempDir('carapace-agents-dotfiles-');
    symlinkSync(outside, s.userAgents);
    expect(await refusal(() => s.service.create(s.project, form({ scope: 'user' })))).toBe('link-outside');
    expect(readdirSync(outside)).toEqual([]);
  });
});
