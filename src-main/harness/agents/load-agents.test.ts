import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../test-support/temp';
import { loadAgentDefinitions, MAX_AGENT_FILES } from './load-agents';

const agentText = (name: string, description = `the ${name} agent`, body = `You are ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

function put(file: string, text: string | Buffer): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** A project, a home and a Carapace home, each in its own temp folder. */
function setup() {
  const project = tempDir('carapace-agents-project-');
  const home = tempDir('carapace-agents-home-');
  const carapaceHome = tempDir('carapace-agents-chome-');
  const projectAgents = path.join(project, '.claude', 'agents');
  const userAgents = path.join(home, '.claude', 'agents');
  const carapaceAgents = path.join(carapaceHome, 'agents');
  const load = (cwd = project, projectRoot = project) =>
    loadAgentDefinitions({ projectRoot, cwd, home, carapaceHome });
  return { project, home, carapaceHome, projectAgents, userAgents, carapaceAgents, load };
}

const names = (r: ReturnType<typeof loadAgentDefinitions>) => r.agents.map((a) => a.name);
const find = (r: ReturnType<typeof loadAgentDefinitions>, name: string) =>
  r.agents.find((a) => a.name === name);

describe('loadAgentDefinitions', () => {
  it('gives the built-ins alone when there are no agent folders', () => {
    const s = setup();
    expect(s.load()).toEqual({
      agents: expect.arrayContaining([expect.objectContaining({ name: 'Explore', source: 'built-in' })]),
      problems: [],
    });
    expect(names(s.load())).toEqual(['general-purpose', 'Explore', 'Plan', 'Verification']);
  });

  it('reads project and user agents recursively; identity comes from the frontmatter, not the filename', () => {
    const s = setup();
    put(path.join(s.projectAgents, 'review.md'), agentText('code-reviewer'));
    put(path.join(s.projectAgents, 'team', 'qa', 'tester.md'), agentText('tester'));
    put(path.join(s.projectAgents, 'notes.txt'), 'not an agent');
    put(path.join(s.userAgents, 'mine.md'), agentText('my-helper'));
    put(path.join(s.carapaceAgents, 'c.md'), agentText('carapace-helper'));
    const r = s.load();
    expect(r.problems).toEqual([]);
    expect(names(r)).toEqual([
      'general-purpose',
      'Explore',
      'Plan',
      'Verification',
      'code-reviewer',
      'tester',
      'carapace-helper',
      'my-helper',
    ]);
    expect(find(r, 'code-reviewer')).toMatchObject({
      source: 'project',
      file: path.join(s.projectAgents, 'review.md'),
      systemPrompt: 'You are code-reviewer.',
    });
    expect(find(r, 'tester')?.file).toBe(path.join(s.projectAgents, 'team', 'qa', 'tester.md'));
    expect(find(r, 'my-helper')).toMatchObject({ source: 'user' });
    expect(find(r, 'carapace-helper')).toMatchObject({ source: 'user' });
  });

  it('puts project over user over built-in, and Carapace’s own folder over ~/.claude', () => {
    const s = setup();
    put(path.join(s.userAgents, 'a.md'), agentText('shared', 'user version'));
    put(path.join(s.carapaceAgents, 'a.md'), agentText('shared', 'carapace version'));
    put(path.join(s.userAgents, 'b.md'), agentText('both-user', 'from ~/.claude'));
    put(path.join(s.carapaceAgents, 'b.md'), agentText('both-user', 'from carapace home'));
    put(path.join(s.projectAgents, 'a.md'), agentText('shared', 'project version'));
    put(path.join(s.userAgents, 'gp.md'), agentText('general-purpose', 'my own general agent'));
    const r = s.load();
    expect(r.problems).toEqual([]);
    expect(find(r, 'shared')).toMatchObject({ description: 'project version', source: 'project' });
    expect(find(r, 'both-user')?.description).toBe('from carapace home');
    // A file may replace a built-in of the same name (it keeps the built-in's place in the list).
    expect(r.agents[0]).toMatchObject({
      name: 'general-purpose',
      source: 'user',
      description: 'my own general agent',
    });
    expect(names(r).filter((n) => n === 'shared')).toHaveLength(1);
  });

  it('walks up from the cwd to the project root, nearest first, and never above the root', () => {
    const outer = tempDir('carapace-agents-outer-');
    const project = path.join(outer, 'project');
    const home = tempDir();
    const carapaceHome = tempDir();
    put(path.join(outer, '.claude', 'agents', 'above.md'), agentText('above-root'));
    put(path.join(project, '.claude', 'agents', 'x.md'), agentText('shared', 'root'));
    put(path.join(project, '.claude', 'agents', 'only-root.md'), agentText('only-root'));
    put(path.join(project, 'pkg', '.claude', 'agents', 'x.md'), agentText('shared', 'pkg'));
    put(
      path.join(project, 'pkg', 'src', 'deep', '.claude', 'agents', 'x.md'),
      agentText('beside', 'not on the way'),
    );
    const cwd = path.join(project, 'pkg', 'src');
    mkdirSync(cwd, { recursive: true });
    const r = loadAgentDefinitions({ projectRoot: project, cwd, home, carapaceHome });
    expect(r.problems).toEqual([]);
    expect(find(r, 'shared')?.description).toBe('pkg');
    expect(find(r, 'only-root')).toBeDefined();
    expect(find(r, 'above-root')).toBeUndefined();
    expect(find(r, 'beside')).toBeUndefined();
    // A cwd outside the project reads the project root's folder only.
    const elsewhere = loadAgentDefinitions({ projectRoot: project, cwd: outer, home, carapaceHome });
    expect(find(elsewhere, 'shared')?.description).toBe('root');
    expect(find(elsewhere, 'above-root')).toBeUndefined();
  });

  it('reports each broken file with its path and a clear message, and still loads the others', () => {
    const s = setup();
    const at = (name: string) => path.join(s.projectAgents, name);
    put(at('good.md'), agentText('good'));
    put(at('bad-yaml.md'), '---\nname: [oops\ndescription: d\n---\nbody\n');
    put(at('no-name.md'), '---\ndescription: d\n---\nbody\n');
    put(
      at('bad-types.md'),
      '---\nname: typed\ndescription: d\nmaxTurns: lots\npermissionMode: yolo\n---\nbody\n',
    );
    put(at('empty-body.md'), '---\nname: empty\ndescription: d\n---\n\n');
    put(
      at('latin1.md'),
      Buffer.concat([Buffer.from(agentText('latin', 'caf')), Buffer.from([0xe9, 0xff, 0x0a])]),
    );
    put(at('nul.md'), agentText('nul', 'has a \0 in it'));
    put(at('big.md'), agentText('big', 'd', 'x'.repeat(256 * 1024)));
    mkdirSync(at('folder.md'));
    put(at('folder.md/inner.md'), agentText('inside-a-folder-named-md'));
    const r = s.load();
    expect(names(r)).toEqual(expect.arrayContaining(['good', 'inside-a-folder-named-md']));
    for (const n of ['typed', 'empty', 'latin', 'nul', 'big']) expect(names(r)).not.toContain(n);
    const message = (name: string) => r.problems.find((p) => p.file === at(name))?.message;
    expect(message('bad-yaml.md')).toMatch(/^Not loaded: its frontmatter is not valid YAML/);
    expect(message('no-name.md')).toBe('Not loaded: name is missing.');
    expect(message('bad-types.md')).toMatch(
      /permissionMode must be one of .*; maxTurns must be a whole number/,
    );
    expect(message('empty-body.md')).toMatch(/the body .* is empty/);
    expect(message('latin1.md')).toBe('Not loaded: it is not UTF-8 text.');
    expect(message('nul.md')).toMatch(/NUL bytes/);
    expect(message('big.md')).toBe('Not loaded: it is larger than 256 KB.');
    expect(message('folder.md')).toBe('Not loaded: it is a folder, not a file.');
    expect(r.problems).toHaveLength(8);
  });

  it('refuses two files of one folder defining the same name, keeping the first by path', () => {
    const s = setup();
    put(path.join(s.projectAgents, 'a.md'), agentText('twin', 'first'));
    put(path.join(s.projectAgents, 'b.md'), agentText('twin', 'second'));
    const r = s.load();
    expect(find(r, 'twin')?.description).toBe('first');
    expect(r.problems).toEqual([
      {
        file: path.join(s.projectAgents, 'b.md'),
        message: `Not loaded: ${path.join(s.projectAgents, 'a.md')}, in the same folder, already defines the agent "twin".`,
      },
    ]);
  });

  it('follows a link to a file inside the agents folder, and no other link', () => {
    const s = setup();
    const outside = put(path.join(tempDir(), 'secret.md'), agentText('smuggled'));
    put(path.join(s.projectAgents, 'real', 'agent.md'), agentText('linked-inside'));
    const at = (name: string) => path.join(s.projectAgents, name);
    symlinkSync(path.join('real', 'agent.md'), at('alias.md'));
    symlinkSync(outside, at('out.md'));
    symlinkSync('/dev/null', at('devnull.md'));
    symlinkSync(at('missing-target'), at('broken.md'));
    symlinkSync('loop-b.md', at('loop-a.md'));
    symlinkSync('loop-a.md', at('loop-b.md'));
    const r = s.load();
    expect(find(r, 'smuggled')).toBeUndefined();
    const message = (name: string) => r.problems.find((p) => p.file === at(name))?.message;
    expect(message('out.md')).toBe(
      `Not loaded: it is a link leading outside the agents folder (to ${outside}).`,
    );
    expect(message('devnull.md')).toBe(
      'Not loaded: it is a link leading outside the agents folder (to /dev/null).',
    );
    expect(message('broken.md')).toBe('Not loaded: it is a link that leads nowhere.');
    expect(message('loop-a.md')).toBe('Not loaded: it is a link that leads nowhere.');
    // alias.md and real/agent.md are the same agent: the link is read first (breadth first), so the
    // file itself is the duplicate.
    expect(find(r, 'linked-inside')?.file).toBe(at('alias.md'));
    expect(message(path.join('real', 'agent.md'))).toMatch(/already defines the agent "linked-inside"/);
  });

  it('never opens a FIFO, whether named .md or reached through a link', () => {
    const s = setup();
    const at = (name: string) => path.join(s.projectAgents, name);
    put(at('good.md'), agentText('good'));
    execFileSync('mkfifo', [at('pipe.md')]);
    execFileSync('mkfifo', [at('pipe')]);
    symlinkSync('pipe', at('to-pipe.md'));
    // Opening a FIFO to read blocks until a writer comes, and a blocked main thread cannot even time
    // out. These writers come after a second: a loader that opened a pipe would be freed, read
    // nothing, and fail below (slow, and with the wrong message) instead of hanging the run.
    for (const pipe of ['pipe.md', 'pipe']) {
      const writer = spawn('sh', ['-c', `sleep 1; : > '${at(pipe)}'`], { stdio: 'ignore' });
      onTestFinished(() => {
        writer.kill('SIGKILL');
      });
    }
    // Not timed: a loader that opened a pipe reads nothing and fails on the messages below, while a
    // bound under the writers' second failed when a loaded machine took that long to load.
    const r = s.load();
    expect(find(r, 'good')).toBeDefined();
    const message = (name: string) => r.problems.find((p) => p.file === at(name))?.message;
    expect(message('pipe.md')).toBe(
      'Not loaded: it is not a regular file (a FIFO, socket or device is never read).',
    );
    expect(message('to-pipe.md')).toBe(
      `Not loaded: it leads to ${at('pipe')}, and it is not a regular file.`,
    );
  });

  it('does not follow links to folders, inside the tree or out of it, so a loop ends', () => {
    const s = setup();
    const elsewhere = tempDir();
    put(path.join(elsewhere, 'far.md'), agentText('far-away'));
    put(path.join(s.projectAgents, 'sub', 'near.md'), agentText('near'));
    symlinkSync('..', path.join(s.projectAgents, 'sub', 'up'));
    symlinkSync(s.projectAgents, path.join(s.projectAgents, 'self'));
    symlinkSync(elsewhere, path.join(s.projectAgents, 'out'));
    const r = s.load();
    expect(find(r, 'near')).toBeDefined();
    expect(find(r, 'far-away')).toBeUndefined();
    expect(r.problems.map((p) => path.relative(s.projectAgents, p.file)).sort()).toEqual([
      'out',
      'self',
      'sub/up',
    ]);
    expect(r.problems[0]?.message).toMatch(/link to a folder; links to folders are not followed/);
  });

  it('does not read a project agents folder that leads outside the project; a user one may be a link', () => {
    const s = setup();
    const elsewhere = tempDir();
    put(path.join(elsewhere, 'x.md'), agentText('from-elsewhere'));
    mkdirSync(path.join(s.project, '.claude'));
    symlinkSync(elsewhere, s.projectAgents);
    const r = s.load();
    expect(find(r, 'from-elsewhere')).toBeUndefined();
    expect(r.problems).toEqual([
      { file: s.projectAgents, message: `Not read: it leads outside the project (to ${elsewhere}).` },
    ]);

    // ~/.claude/agents as a link into a dotfiles folder is ordinary.
    mkdirSync(path.join(s.home, '.claude'));
    symlinkSync(elsewhere, s.userAgents);
    expect(find(s.load(), 'from-elsewhere')).toMatchObject({
      source: 'user',
      file: path.join(s.userAgents, 'x.md'),
    });
  });

  it('reads a folder reached twice once, at its higher precedence (the project is the home folder)', () => {
    const home = tempDir();
    const carapaceHome = tempDir();
    put(path.join(home, '.claude', 'agents', 'a.md'), agentText('here'));
    const r = loadAgentDefinitions({ projectRoot: home, cwd: home, home, carapaceHome });
    expect(r.problems).toEqual([]);
    expect(r.agents.filter((a) => a.name === 'here')).toEqual([
      expect.objectContaining({ source: 'project' }),
    ]);
  });

  it('reports an agents path that is a file, and a folder too deep to read', () => {
    const s = setup();
    put(s.projectAgents, 'I am a file');
    let deep = s.userAgents;
    for (let i = 0; i < 10; i++) deep = path.join(deep, `d${i}`);
    put(path.join(deep, 'deep.md'), agentText('too-deep'));
    put(path.join(s.userAgents, 'shallow.md'), agentText('shallow'));
    const r = s.load();
    expect(find(r, 'shallow')).toBeDefined();
    expect(find(r, 'too-deep')).toBeUndefined();
    expect(r.problems).toEqual([
      { file: s.projectAgents, message: 'Not read: it is not a folder.' },
      {
        file: s.userAgents,
        message: expect.stringMatching(/^Some folders in it were not read: .* more than 8 levels deep/),
      },
    ]);
  });

  it(`reads at most ${MAX_AGENT_FILES} files and says so`, () => {
    const s = setup();
    for (let i = 0; i < MAX_AGENT_FILES + 3; i++)
      put(path.join(s.projectAgents, `a${String(i).padStart(4, '0')}.md`), agentText(`agent-${i}`));
    put(path.join(s.userAgents, 'u.md'), agentText('user-one'));
    const r = s.load();
    expect(r.agents.filter((a) => a.source === 'project')).toHaveLength(MAX_AGENT_FILES);
    expect(find(r, 'user-one')).toBeUndefined();
    expect(r.problems).toEqual([
      {
        file: path.join(s.projectAgents, `a0${MAX_AGENT_FILES}.md`),
        message: `Not read: only the first ${MAX_AGENT_FILES} agent files are read; this one and any after it were skipped.`,
      },
    ]);
  });
});
