import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionInstructions } from './session-instructions';
import { instructionWorld } from '../../../test-support/instruction-layout';

describe('SessionInstructions: instructions brought in by reading a file', () => {
  it("attaches the CLAUDE.md files between the project and the file's folder once, in the session's list", async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', 'root');
    w.write('work/repo/pkg/CLAUDE.md', 'pkg @notes.md');
    w.write('work/repo/pkg/notes.md', 'pkg notes');
    w.write('work/repo/pkg/lib/.claude/CLAUDE.md', 'lib');
    w.write('work/repo/pkg/lib/CLAUDE.local.md', 'lib local');
    w.write('work/repo/other/CLAUDE.md', 'other: not on the way');
    const s = new SessionInstructions(w.roots);
    await s.reload();

    const first = await s.forRead(w.at('work/repo/pkg/lib/code.ts'));
    expect(
      first.map((f) => [path.relative(w.root, f.path), f.scope, f.importedBy && path.basename(f.importedBy)]),
    ).toEqual([
      ['work/repo/pkg/CLAUDE.md', 'project', null],
      ['work/repo/pkg/notes.md', 'project', 'CLAUDE.md'],
      ['work/repo/pkg/lib/.claude/CLAUDE.md', 'project', null],
      ['work/repo/pkg/lib/CLAUDE.local.md', 'local', null],
    ]);
    // Once per session: the next read there, and a reload before the next turn, bring nothing again.
    expect(await s.forRead(w.at('work/repo/pkg/lib/more.ts'))).toEqual([]);
    await s.reload();
    expect(await s.forRead(w.at('work/repo/pkg/other.ts'))).toEqual([]);
    expect(w.rels(s.snapshot())).toEqual([
      'work/repo/CLAUDE.md',
      'work/repo/pkg/CLAUDE.md',
      'work/repo/pkg/notes.md',
      'work/repo/pkg/lib/.claude/CLAUDE.md',
      'work/repo/pkg/lib/CLAUDE.local.md',
    ]);
  });

  it('does not attach a CLAUDE.md to the Read of that same file', async () => {
    const w = instructionWorld();
    w.write('work/repo/pkg/CLAUDE.md', 'pkg');
    w.write('work/repo/pkg/CLAUDE.local.md', 'pkg local');
    const s = new SessionInstructions(w.roots);
    await s.reload();
    const attached = await s.forRead(w.at('work/repo/pkg/CLAUDE.md'));
    expect(attached.map((f) => path.basename(f.path))).toEqual(['CLAUDE.local.md']);
  });

  it('brings nothing for files in the project folder itself or outside the project', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', 'root');
    w.write('elsewhere/CLAUDE.md', 'outside');
    const s = new SessionInstructions(w.roots);
    await s.reload();
    expect(await s.forRead(w.at('work/repo/README.md'))).toEqual([]);
    expect(await s.forRead(w.at('elsewhere/file.ts'))).toEqual([]);
  });

  it('attaches a paths rule when a matching file is read, once, and never for other files', async () => {
    const w = instructionWorld();
    w.write('work/repo/.claude/rules/api.md', '---\npaths: ["src/api/**/*.ts"]\n---\nValidate with zod.');
    w.write('home/.claude/rules/tests.md', '---\npaths: ["**/*.test.ts"]\n---\nNo mocks.');
    w.write('work/repo/pkg/.claude/rules/pkg.md', '---\npaths: ["*.css"]\n---\nUse variables.');
    const s = new SessionInstructions(w.roots);
    await s.reload();
    expect(w.rels(s.snapshot())).toEqual([]);

    expect(await s.forRead(w.at('work/repo/src/web/page.ts'))).toEqual([]);
    const api = await s.forRead(w.at('work/repo/src/api/users.ts'));
    expect(api.map((f) => [f.scope, f.text])).toEqual([['rules', 'Validate with zod.']]);
    expect(await s.forRead(w.at('work/repo/src/api/orders.ts'))).toEqual([]);
    const tests = await s.forRead(w.at('work/repo/src/api/users.test.ts'));
    expect(tests.map((f) => [f.scope, f.text])).toEqual([['user', 'No mocks.']]);
    // A subfolder's own rules are relative to that subfolder, found when a file there is read.
    const css = await s.forRead(w.at('work/repo/pkg/theme.css'));
    expect(css.map((f) => f.text)).toEqual(['Use variables.']);
  });

  it('attaches each file once even when reads run in parallel', async () => {
    const w = instructionWorld();
    w.write('work/repo/pkg/CLAUDE.md', 'pkg');
    const s = new SessionInstructions(w.roots);
    await s.reload();
    const results = await Promise.all(
      ['a.ts', 'b.ts', 'c.ts', 'd.ts'].map((f) => s.forRead(w.at(`work/repo/pkg/${f}`))),
    );
    expect(results.flat().map((f) => f.text)).toEqual(['pkg']);
  });

  it('does not attach a subfolder file the broad set already imported', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', '@pkg/CLAUDE.md');
    w.write('work/repo/pkg/CLAUDE.md', 'pkg');
    const s = new SessionInstructions(w.roots);
    await s.reload();
    expect(await s.forRead(w.at('work/repo/pkg/x.ts'))).toEqual([]);
  });

  it('lists files other loaders add (auto-memory) after the instruction files', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', 'root');
    const s = new SessionInstructions(w.roots);
    await s.reload();
    s.addLoaded([{ scope: 'auto-memory', path: '/m/MEMORY.md', importedBy: null, text: 'index' }]);
    s.addLoaded([{ scope: 'auto-memory', path: '/m/MEMORY.md', importedBy: null, text: 'index v2' }]);
    expect(s.snapshot().files.map((f) => [f.scope, f.text])).toEqual([
      ['project', 'root'],
      ['auto-memory', 'index v2'],
    ]);
  });
});
