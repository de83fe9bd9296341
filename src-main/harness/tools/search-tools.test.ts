import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTool, text } from '../../test-support/run-tool';
import { toolContext } from '../../test-support/tool-context';
import { GlobTool } from './glob';
import { GrepTool } from './grep';
import { findRipgrep, setRipgrepForTests } from './ripgrep';

afterEach(() => setRipgrepForTests(undefined));

function tree() {
  const ctx = toolContext();
  const at = (p: string) => path.join(ctx.projectRoot, p);
  mkdirSync(at('src/deep'), { recursive: true });
  mkdirSync(at('node_modules/pkg'), { recursive: true });
  writeFileSync(at('src/a.ts'), 'export const alpha = 1;\n');
  writeFileSync(at('src/deep/b.ts'), 'export function Beta() {}\nconst ALPHA = 2;\n');
  writeFileSync(at('src/c.md'), '# alpha docs\n');
  writeFileSync(at('node_modules/pkg/index.ts'), 'alpha\n');
  const now = Date.now() / 1000;
  utimesSync(at('src/a.ts'), now - 100, now - 100);
  utimesSync(at('src/deep/b.ts'), now, now);
  return { ctx, at };
}

// Both search paths: ripgrep (what CI installs) and the JavaScript fallback.
const engines = [
  ['ripgrep', () => setRipgrepForTests(undefined)],
  ['JS fallback', () => setRipgrepForTests(null)],
] as const;

describe.each(engines)('Glob and Grep (%s)', (name, choose) => {
  it('globs at any depth, newest first, skipping node_modules', async () => {
    if (name === 'ripgrep' && !findRipgrep()) return; // CI installs ripgrep; the fallback case always runs
    choose();
    const { ctx, at } = tree();
    const out = await runTool(GlobTool, { pattern: '**/*.ts' }, ctx);
    expect(text(out).split('\n')).toEqual([at('src/deep/b.ts'), at('src/a.ts')]);
    expect(text(await runTool(GlobTool, { pattern: '*.md', path: 'src' }, ctx))).toBe(at('src/c.md'));
    expect(text(await runTool(GlobTool, { pattern: '*.py' }, ctx))).toBe('No files found');
    expect(
      text(await runTool(GlobTool, { pattern: 'src/{a,c}.*' }, ctx))
        .split('\n')
        .sort(),
    ).toEqual([at('src/a.ts'), at('src/c.md')]);
  });

  it('refuses a pattern it will not run, in words, without stalling', async () => {
    if (name === 'ripgrep') return; // ripgrep's own matcher is linear; this is the fallback's guard
    choose();
    const { ctx } = tree();
    const out = await runTool(GlobTool, { pattern: '**/{1..3}*a*a*a*b' }, ctx);
    expect(out.isError).toBe(true);
    expect(text(out)).toMatch(/cannot be used: .*with \{…\} in a segment at most 2 are allowed/);
    const grep = await runTool(GrepTool, { pattern: 'alpha', glob: 'x'.repeat(5000) }, ctx);
    expect(text(grep)).toMatch(/^Grep failed: .*5000 characters long/);
  });

  it('greps files, content with line numbers, counts, case-insensitively and by glob', async () => {
    if (name === 'ripgrep' && !findRipgrep()) return;
    choose();
    const { ctx, at } = tree();
    expect(text(await runTool(GrepTool, { pattern: 'alpha' }, ctx))).toBe(
      `Found 2 files\n${at('src/c.md')}\n${at('src/a.ts')}`,
    );
    expect(
      text(
        await runTool(GrepTool, { pattern: 'alpha', '-i': true, glob: '*.ts', output_mode: 'content' }, ctx),
      )
        .split('\n')
        .sort(),
    ).toEqual(['src/a.ts:1:export const alpha = 1;', 'src/deep/b.ts:2:const ALPHA = 2;']);
    expect(
      text(
        await runTool(
          GrepTool,
          { pattern: 'alpha', '-i': true, output_mode: 'count', path: 'src/deep' },
          ctx,
        ),
      ),
    ).toBe('b.ts:1');
    expect(text(await runTool(GrepTool, { pattern: 'zzz' }, ctx))).toBe('No matches found');
  });
});
