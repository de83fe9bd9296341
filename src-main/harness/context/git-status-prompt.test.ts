import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text } from '../../test-support/engine';
import { runGit as git } from '../../test-support/git';
import { tempDir } from '../../test-support/temp';

type Body = { system?: unknown };
const systemText = (body: Body | undefined) => JSON.stringify(body?.system ?? null);

describe('git in the system prompt', () => {
  it('gives the branch and status as they were at the start, byte-identical on every turn', async () => {
    const repo = tempDir('carapace-git-prompt-');
    git(repo, 'init', '-q', '-b', 'topic');
    writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-q', '-m', 'first');
    writeFileSync(path.join(repo, 'a.txt'), 'changed\n');
    const t = await testEngine(
      { steps: [{ reply: { content: [text('One.')] } }, { reply: { content: [text('Two.')] } }] },
      { projectRoot: repo, cwd: repo },
    );
    await t.run('one');
    // A change after the session started is not in the prompt: it is a snapshot, as in Claude Code.
    writeFileSync(path.join(repo, 'later.txt'), 'new\n');
    git(repo, 'checkout', '-q', '-b', 'other');
    await t.run('two');
    const [first, second] = t.api.requests.map((r) => systemText(r.body as Body));
    expect(first).toContain('Current branch: topic');
    expect(first).toContain('Status:\\n M a.txt');
    expect(first).not.toContain('later.txt');
    expect(second).toBe(first);
  });

  it('a project in a subfolder of a repository gets the branch of its repository and is said to be in git', async () => {
    const repo = tempDir('carapace-git-prompt-');
    git(repo, 'init', '-q', '-b', 'trunk');
    const sub = path.join(repo, 'packages', 'app');
    mkdirSync(sub, { recursive: true });
    const t = await testEngine(
      { steps: [{ reply: { content: [text('One.')] } }] },
      { projectRoot: sub, cwd: sub },
    );
    await t.run('one');
    const system = systemText(t.api.requests[0]?.body);
    expect(system).toContain('Is a git repository: yes');
    expect(system).toContain('Current branch: trunk');
  });

  it('a folder outside git gets no git lines', async () => {
    const t = await testEngine({ steps: [{ reply: { content: [text('One.')] } }] });
    await t.run('one');
    const system = systemText(t.api.requests[0]?.body);
    expect(system).toContain('Is a git repository: no');
    expect(system).not.toContain('gitStatus');
    expect(system).not.toContain('Current branch');
  });
});
