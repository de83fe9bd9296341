import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, text } from '../../test-support/run-tool';
import { toolContext } from '../../test-support/tool-context';
import { EditTool } from './edit';
import { ReadTool } from './read';
import { WriteTool } from './write';

function setup(files: Record<string, string | Buffer>) {
  const ctx = toolContext();
  for (const [name, content] of Object.entries(files))
    writeFileSync(path.join(ctx.projectRoot, name), content);
  return { ctx, at: (name: string) => path.join(ctx.projectRoot, name) };
}

describe('Read', () => {
  it('numbers lines, honours offset and limit, and says where to read on', async () => {
    const { ctx, at } = setup({ 'a.txt': 'one\ntwo\nthree\nfour\n' });
    const all = await runTool(ReadTool, { file_path: at('a.txt') }, ctx);
    expect(text(all)).toBe('     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour');
    expect(all.display).toEqual({ kind: 'read', path: at('a.txt'), startLine: 1, endLine: 4, totalLines: 4 });
    const part = await runTool(ReadTool, { file_path: 'a.txt', offset: 2, limit: 2 }, ctx);
    expect(text(part)).toBe('     2\ttwo\n     3\tthree\n\n(Showing lines 2–3 of 4; read on with offset 4.)');
    expect((await runTool(ReadTool, { file_path: 'a.txt', offset: 9 }, ctx)).isError).toBe(true);
  });

  it('returns images as image blocks and refuses binary files', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const { ctx } = setup({ 'pic.png': png, 'blob.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]) });
    const image = await runTool(ReadTool, { file_path: 'pic.png' }, ctx);
    expect(image.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
    ]);
    const binary = await runTool(ReadTool, { file_path: 'blob.bin' }, ctx);
    expect(binary).toMatchObject({ isError: true, content: expect.stringContaining('binary file') });
  });

  it('says plainly when the file is missing or a folder', async () => {
    const { ctx } = setup({});
    expect(text(await runTool(ReadTool, { file_path: 'nope.txt' }, ctx))).toMatch(/^File does not exist/);
    expect(text(await runTool(ReadTool, { file_path: '.' }, ctx))).toMatch(/is a directory/);
  });
});

describe('Edit', () => {
  it('refuses a file that was not read in this session', async () => {
    const { ctx, at } = setup({ 'a.ts': 'let x = 1;\n' });
    const out = await runTool(
      EditTool,
      { file_path: at('a.ts'), old_string: 'x = 1', new_string: 'x = 2' },
      ctx,
    );
    expect(out).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^File has not been read yet/),
    });
    expect(readFileSync(at('a.ts'), 'utf8')).toBe('let x = 1;\n');
  });

  it('refuses a file that changed on disk after it was read', async () => {
    const { ctx, at } = setup({ 'a.ts': 'let x = 1;\n' });
    await runTool(ReadTool, { file_path: at('a.ts') }, ctx);
    writeFileSync(at('a.ts'), 'let x = 1; // edited by the user\n');
    utimesSync(at('a.ts'), new Date(), new Date(Date.now() + 5000));
    const out = await runTool(
      EditTool,
      { file_path: at('a.ts'), old_string: 'x = 1', new_string: 'x = 2' },
      ctx,
    );
    expect(out).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^File has been modified since it was read/),
    });
    expect(readFileSync(at('a.ts'), 'utf8')).toBe('let x = 1; // edited by the user\n');
  });

  it('accepts a file whose mtime moved but whose content is what was read (a touch)', async () => {
    const { ctx, at } = setup({ 'a.ts': 'let x = 1;\n' });
    await runTool(ReadTool, { file_path: at('a.ts') }, ctx);
    utimesSync(at('a.ts'), new Date(), new Date(Date.now() + 5000));
    const out = await runTool(
      EditTool,
      { file_path: at('a.ts'), old_string: 'x = 1', new_string: 'x = 2' },
      ctx,
    );
    expect(out.isError).toBeFalsy();
  });

  it('refuses an old_string that matches twice, unless replace_all', async () => {
    const { ctx, at } = setup({ 'a.ts': 'foo(); foo();\nbar();\n' });
    await runTool(ReadTool, { file_path: at('a.ts') }, ctx);
    const twice = await runTool(
      EditTool,
      { file_path: at('a.ts'), old_string: 'foo()', new_string: 'baz()' },
      ctx,
    );
    expect(twice).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^Found 2 matches of the string to replace, but replace_all is false/),
    });
    expect(readFileSync(at('a.ts'), 'utf8')).toBe('foo(); foo();\nbar();\n');

    const all = await runTool(
      EditTool,
      { file_path: at('a.ts'), old_string: 'foo()', new_string: 'baz($&)', replace_all: true },
      ctx,
    );
    expect(all.isError).toBeFalsy();
    expect(readFileSync(at('a.ts'), 'utf8')).toBe('baz($&); baz($&);\nbar();\n');
    expect(all.display).toMatchObject({ kind: 'diff', added: 1, removed: 1 });
    // After its own edit the file counts as read: a second edit needs no new Read.
    const again = await runTool(
      EditTool,
      { file_path: at('a.ts'), old_string: 'bar()', new_string: 'qux()' },
      ctx,
    );
    expect(again.isError).toBeFalsy();
    expect(ctx.fileHistory.snapshots.map((s) => s.before)).toEqual([
      'foo(); foo();\nbar();\n',
      'baz($&); baz($&);\nbar();\n',
    ]);
  });

  it('replaces a unique match exactly, $-patterns included, and refuses a missing one', async () => {
    const { ctx, at } = setup({ 'a.ts': 'const price = 1;\n' });
    await runTool(ReadTool, { file_path: at('a.ts') }, ctx);
    expect(
      await runTool(EditTool, { file_path: at('a.ts'), old_string: 'nope', new_string: 'x' }, ctx),
    ).toMatchObject({ isError: true, content: expect.stringMatching(/^String to replace not found/) });
    expect(
      await runTool(EditTool, { file_path: at('a.ts'), old_string: '1', new_string: '1' }, ctx),
    ).toMatchObject({ isError: true, content: expect.stringMatching(/^No changes to make/) });
    await runTool(EditTool, { file_path: at('a.ts'), old_string: '= 1', new_string: "= '$1'" }, ctx);
    expect(readFileSync(at('a.ts'), 'utf8')).toBe("const price = '$1';\n");
  });
});

describe('Write', () => {
  it('creates new files freely but overwrites only what was read', async () => {
    const { ctx, at } = setup({ 'old.txt': 'keep me' });
    const created = await runTool(WriteTool, { file_path: at('sub/new.txt'), content: 'a\nb' }, ctx);
    expect(created).toMatchObject({
      content: expect.stringMatching(/^File created successfully/),
      display: { kind: 'diff', created: true, added: 2 },
    });
    expect(readFileSync(at('sub/new.txt'), 'utf8')).toBe('a\nb');
    const refused = await runTool(WriteTool, { file_path: at('old.txt'), content: 'gone' }, ctx);
    expect(refused.isError).toBe(true);
    expect(readFileSync(at('old.txt'), 'utf8')).toBe('keep me');
    await runTool(ReadTool, { file_path: at('old.txt') }, ctx);
    expect(
      (await runTool(WriteTool, { file_path: at('old.txt'), content: 'replaced' }, ctx)).isError,
    ).toBeFalsy();
  });
});
