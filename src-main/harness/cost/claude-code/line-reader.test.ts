import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp';
import { forEachLine, type LineEvent, readLinesOf } from './line-reader';

function eventsOf(content: string, maxLineBytes: number, chunkBytes: number): LineEvent[] {
  const file = path.join(tempDir(), 'f.jsonl');
  writeFileSync(file, content);
  const fd = openSync(file, 'r');
  const out: LineEvent[] = [];
  try {
    forEachLine(fd, { maxLineBytes, chunkBytes }, (e) => out.push(e));
  } finally {
    closeSync(fd);
  }
  return out;
}

describe('forEachLine', () => {
  it('gives the same lines whatever the chunk size, multi-byte characters split across chunks included', () => {
    const content = 'first\n\nsecond ünïcödé €\n   \nlast without newline';
    const expected: LineEvent[] = [
      { kind: 'line', lineNo: 1, text: 'first' },
      { kind: 'line', lineNo: 3, text: 'second ünïcödé €' },
      { kind: 'line', lineNo: 5, text: 'last without newline' },
    ];
    for (const chunk of [1, 2, 3, 7, 64, 1 << 20])
      expect(eventsOf(content, 1000, chunk), `chunk ${chunk}`).toEqual(expected);
  });

  it('reports a line over the cap (counted, not kept) and goes on, also when it is the last', () => {
    const long = 'x'.repeat(50);
    expect(eventsOf(`a\n${long}\nb\n${long}`, 10, 4)).toEqual([
      { kind: 'line', lineNo: 1, text: 'a' },
      { kind: 'too-long', lineNo: 2, bytes: 50 },
      { kind: 'line', lineNo: 3, text: 'b' },
      { kind: 'too-long', lineNo: 4, bytes: 50 },
    ]);
  });

  it('refuses to read a folder as a file', () => {
    expect(() => readLinesOf(tempDir(), { maxLineBytes: 10 }, () => undefined)).toThrow();
  });

  it('refuses a FIFO at once instead of waiting in open() for a writer, and does not follow a link', () => {
    const dir = path.join(tempDir(), 'projects', '-x');
    mkdirSync(dir, { recursive: true });
    const fifo = path.join(dir, 'evil.jsonl');
    execFileSync('mkfifo', [fifo]);
    const link = path.join(dir, 'link.jsonl');
    const target = path.join(dir, 'plain.jsonl');
    writeFileSync(target, '{}\n');
    symlinkSync(target, link);
    // In a child with a timeout: a blocking open would hang this test's own process for good.
    const script = path.join(dir, 'run.ts');
    const here = path.resolve('src-main/harness/cost/claude-code');
    writeFileSync(
      script,
      `import { readLinesOf } from ${JSON.stringify(path.join(here, 'line-reader'))};\n` +
        `import { readClaudeCodeFile } from ${JSON.stringify(path.join(here, 'read-file'))};\n` +
        `const out: string[] = [];\n` +
        `for (const f of ${JSON.stringify([fifo, link])}) {\n` +
        `  try { readLinesOf(f, { maxLineBytes: 100 }, () => undefined); out.push('read'); }\n` +
        `  catch (e) { out.push((e as NodeJS.ErrnoException).code ?? (e as Error).message); }\n` +
        `}\n` +
        `out.push(...readClaudeCodeFile(${JSON.stringify(fifo)}).problems);\n` +
        `console.log(JSON.stringify(out));\n`,
    );
    const r = spawnSync(path.resolve('node_modules/.bin/tsx'), ['--tsconfig', 'tsconfig.node.json', script], {
      timeout: 20_000,
      encoding: 'utf8',
    });
    expect(r.signal, r.stderr).toBeNull();
    expect(JSON.parse(r.stdout.trim())).toEqual([
      'not a regular file',
      'ELOOP',
      expect.stringMatching(/evil\.jsonl: could not be read \(not a regular file\)/),
    ]);
  }, 30_000);
});
