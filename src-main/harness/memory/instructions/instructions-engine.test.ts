import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text, toolUse } from '../../../test-support/engine';
import { tempDir } from '../../../test-support/temp';

type Scenario = Parameters<typeof testEngine>[0];
type Body = Awaited<ReturnType<typeof testEngine>>['api']['requests'][number]['body'];

/** The text of message content: a string, or text blocks and tool results (what a request carried). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: unknown; content?: unknown }) =>
      b.type === 'text' && typeof b.text === 'string'
        ? b.text
        : b.type === 'tool_result'
          ? contentText(b.content)
          : '',
    )
    .join('\n');
}

/** The system prompt a recorded request carried, as text (a string or text blocks). */
function systemText(body: Body | undefined): string {
  const system = body?.system;
  if (typeof system === 'string') return system;
  if (Array.isArray(system)) return contentText(system);
  return '';
}

/** An engine on a temp project whose home, $CARAPACE_HOME and managed folders are empty temp folders. */
async function engineWith(
  files: Record<string, string>,
  steps: Exclude<Scenario, (...args: never[]) => unknown>['steps'] = [
    { reply: { content: [text('Done.')] } },
  ],
) {
  const home = tempDir('carapace-home-');
  const t = await testEngine(
    { steps },
    { instructionRoots: { homeDir: home, carapaceHome: path.join(home, '.carapace'), managedDirs: [] } },
  );
  for (const [rel, body] of Object.entries(files)) {
    const file = path.join(t.project, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, body);
  }
  return t;
}

describe('instruction files reach the request through the real SDK', () => {
  it('a CLAUDE.md importing @docs/notes.md: both texts in the system prompt, the chain in loadedContext', async () => {
    const t = await engineWith({
      'CLAUDE.md': 'Always answer in French. See @docs/notes.md for the rest.',
      'docs/notes.md': 'Notes: the build runs with `make all`.',
    });
    await t.run('hello');
    const system = systemText(t.api.requests[0]?.body);
    expect(system).toContain('Always answer in French.');
    expect(system).toContain('Notes: the build runs with `make all`.');
    expect(system).toContain(`Contents of ${path.join(t.project, 'docs/notes.md')}`);
    expect(system.indexOf('Always answer in French.')).toBeLessThan(system.indexOf('Notes: the build'));

    const loaded = t.engine.loadedContext().files.filter((f) => f.path.startsWith(t.project));
    expect(
      loaded.map((f) => [
        path.relative(t.project, f.path),
        f.importedBy && path.relative(t.project, f.importedBy),
      ]),
    ).toEqual([
      ['CLAUDE.md', null],
      ['docs/notes.md', 'CLAUDE.md'],
    ]);
  });

  it('a 5-hop chain: hops 1 to 4 are in the request, the 5th is not', async () => {
    const files: Record<string, string> = { 'CLAUDE.md': 'ROOT-TEXT @hop1.md' };
    for (let i = 1; i <= 5; i++) files[`hop${i}.md`] = `HOP-${i}-TEXT @hop${i + 1}.md`;
    const t = await engineWith(files);
    const run = await t.run('hello');
    const system = systemText(t.api.requests[0]?.body);
    for (const hop of ['ROOT-TEXT', 'HOP-1-TEXT', 'HOP-2-TEXT', 'HOP-3-TEXT', 'HOP-4-TEXT'])
      expect(system).toContain(hop);
    expect(system).not.toContain('HOP-5-TEXT');
    // The person is told, once, in a notice.
    const notices = run.events.flatMap((e) =>
      e.type === 'item' && e.item.kind === 'notice' && e.item.code === 'instructions' ? [e.item.text] : [],
    );
    expect(notices).toEqual([expect.stringMatching(/hop4\.md were not followed/)]);
  });

  it('a cycle: each file once in the request, and a notice shown once across turns', async () => {
    const t = await engineWith(
      {
        'CLAUDE.md': 'CYCLE-ROOT @a.md',
        'a.md': 'CYCLE-A @b.md',
        'b.md': 'CYCLE-B @a.md',
      },
      [{ reply: { content: [text('One.')] } }, { reply: { content: [text('Two.')] } }],
    );
    const first = await t.run('hello');
    const system = systemText(t.api.requests[0]?.body);
    for (const marker of ['CYCLE-ROOT', 'CYCLE-A', 'CYCLE-B'])
      expect(system.split(marker).length - 1).toBe(1);
    const noticesOf = (events: typeof first.events) =>
      events.flatMap((e) => (e.type === 'item' && e.item.kind === 'notice' ? [e.item.text] : []));
    expect(noticesOf(first.events)).toEqual([
      expect.stringMatching(/^Import cycle: .*b\.md imports .*a\.md/),
    ]);
    expect(t.engine.loadedContext().notices).toHaveLength(1);
    const second = await t.run('again');
    expect(noticesOf(second.events)).toEqual([]);
  });

  it('re-reads instruction files each turn, so an edit reaches the next request', async () => {
    const t = await engineWith({ 'CLAUDE.md': 'VERSION-ONE' }, [
      { reply: { content: [text('One.')] } },
      { reply: { content: [text('Two.')] } },
    ]);
    await t.run('hello');
    writeFileSync(path.join(t.project, 'CLAUDE.md'), 'VERSION-TWO');
    await t.run('again');
    expect(systemText(t.api.requests[0]?.body)).toContain('VERSION-ONE');
    expect(systemText(t.api.requests[1]?.body)).toContain('VERSION-TWO');
    expect(systemText(t.api.requests[1]?.body)).not.toContain('VERSION-ONE');
  });

  it('reading a file in a subfolder attaches its CLAUDE.md and matching paths rule to the result, once', async () => {
    const t = await engineWith(
      {
        'CLAUDE.md': 'ROOT-RULES',
        'pkg/CLAUDE.md': 'PKG-RULES',
        'pkg/a.ts': 'export const a = 1;\n',
        'pkg/b.ts': 'export const b = 2;\n',
        '.claude/rules/ts.md': '---\npaths: ["pkg/*.ts"]\n---\nTS-RULE',
      },
      [
        { reply: { content: [toolUse('Read', { file_path: 'pkg/a.ts' })], stop_reason: 'tool_use' } },
        { reply: { content: [toolUse('Read', { file_path: 'pkg/b.ts' })], stop_reason: 'tool_use' } },
        { reply: { content: [text('Read both.')] } },
      ],
    );
    await t.run('look at pkg');
    const system = systemText(t.api.requests[0]?.body);
    expect(system).toContain('ROOT-RULES');
    expect(system).not.toContain('PKG-RULES');
    expect(system).not.toContain('TS-RULE');

    const lastUser = (i: number) => {
      const messages = t.api.requests[i]?.body.messages ?? [];
      return contentText(messages.at(-1)?.content);
    };
    const firstResult = lastUser(1);
    expect(firstResult).toContain('export const a = 1;');
    expect(firstResult).toContain('PKG-RULES');
    expect(firstResult).toContain('TS-RULE');
    const secondResult = lastUser(2);
    expect(secondResult).toContain('export const b = 2;');
    expect(secondResult).not.toContain('PKG-RULES');
    expect(secondResult).not.toContain('TS-RULE');

    const listed = t.engine.loadedContext().files.filter((f) => f.path.startsWith(t.project));
    expect(listed.map((f) => [path.relative(t.project, f.path), f.scope])).toEqual([
      ['CLAUDE.md', 'project'],
      ['pkg/CLAUDE.md', 'project'],
      ['.claude/rules/ts.md', 'rules'],
    ]);
  });

  it("a hostile project cannot import the person's secrets or other files into the request; their own CLAUDE.md can import outside", async () => {
    const t = await engineWith(
      {
        'CLAUDE.md': 'PROJECT-RULES @~/.ssh/id_rsa @~/other-project/notes.md @docs/link.md @docs/inside.md',
        'pkg/CLAUDE.md': 'PKG-RULES @~/.aws/credentials',
        'pkg/a.ts': 'export const a = 1;\n',
      },
      [
        { reply: { content: [toolUse('Read', { file_path: 'pkg/a.ts' })], stop_reason: 'tool_use' } },
        { reply: { content: [text('Done.')] } },
      ],
    );
    const home = t.options.instructionRoots?.homeDir ?? '';
    const put = (file: string, body: string) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, body);
    };
    put(path.join(home, '.ssh', 'id_rsa'), 'SSH-PRIVATE-KEY');
    put(path.join(home, '.aws', 'credentials'), 'AWS-SECRET');
    put(path.join(home, 'other-project', 'notes.md'), 'OTHER-PROJECT-NOTES');
    put(path.join(home, 'other-project', 'linked.md'), 'LINKED-OUT');
    put(path.join(home, 'elsewhere.md'), 'ELSEWHERE-TEXT');
    put(path.join(t.project, 'docs', 'inside.md'), `INSIDE-RULES @${path.join(home, 'elsewhere.md')}`);
    symlinkSync(path.join(home, 'other-project', 'linked.md'), path.join(t.project, 'docs', 'link.md'));
    put(path.join(home, '.claude', 'CLAUDE.md'), 'USER-RULES @~/other-project/notes.md @~/.ssh/id_rsa');

    const run = await t.run('look at pkg');
    const system = systemText(t.api.requests[0]?.body);
    for (const marker of ['PROJECT-RULES', 'INSIDE-RULES', 'USER-RULES', 'OTHER-PROJECT-NOTES'])
      expect(system).toContain(marker);
    // The person's own file imported the other project's notes; the project's import of them was not followed.
    expect(system.split('OTHER-PROJECT-NOTES').length - 1).toBe(1);
    expect(system).toContain(`imported by ${path.join(home, '.claude', 'CLAUDE.md')}`);
    expect(t.api.requests).toHaveLength(2);
    expect(contentText(t.api.requests[1]?.body.messages?.at(-1)?.content)).toContain('PKG-RULES');
    // Nothing secret, linked out or outside the project reached the provider in any request.
    for (const request of t.api.requests) {
      const sent = JSON.stringify(request.body);
      for (const marker of ['SSH-PRIVATE-KEY', 'AWS-SECRET', 'LINKED-OUT', 'ELSEWHERE-TEXT'])
        expect(sent).not.toContain(marker);
    }
    const notices = run.events.flatMap((e) =>
      e.type === 'item' && e.item.kind === 'notice' && e.item.code === 'instructions' ? [e.item.text] : [],
    );
    expect(notices).toEqual([
      expect.stringMatching(/\.claude\/CLAUDE\.md imports .*\.ssh\/id_rsa, which is a secret/),
      expect.stringMatching(/CLAUDE\.md imports .*\.ssh\/id_rsa, which is a secret/),
      expect.stringMatching(/CLAUDE\.md imports .*other-project\/notes\.md, which is outside the project/),
      expect.stringMatching(
        /imports .*docs\/link\.md \(a link to .*linked\.md\), which is outside the project/,
      ),
      expect.stringMatching(/inside\.md imports .*elsewhere\.md, which is outside the project/),
    ]);
    // The subfolder's CLAUDE.md came with the Read; its import of a secret is a notice in the session's list.
    expect(t.engine.loadedContext().notices).toContainEqual(
      expect.stringMatching(/pkg\/CLAUDE\.md imports .*\.aws\/credentials, which is a secret/),
    );
  });
});
