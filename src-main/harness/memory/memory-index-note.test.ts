import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, text } from '../../test-support/run-tool';
import { tempDir } from '../../test-support/temp';
import { toolContext } from '../../test-support/tool-context';
import { EditTool } from '../tools/edit';
import { ReadTool } from '../tools/read';
import { WriteTool } from '../tools/write';

const index = (n: number) =>
  Array.from({ length: n }, (_, i) => `- [m${i}](m${i}.md): note ${i}`).join('\n') + '\n';

describe('Write and Edit of MEMORY.md past its limits', () => {
  it('Write: says nothing within the limits, and asks for a shorter index past 200 lines', async () => {
    const ctx = toolContext();
    const file = path.join(tempDir(), 'memory', 'MEMORY.md');
    const small = await runTool(WriteTool, { file_path: file, content: index(10) }, ctx);
    expect(text(small)).not.toMatch(/Rewrite MEMORY\.md/);
    await runTool(ReadTool, { file_path: file }, ctx);
    const big = await runTool(WriteTool, { file_path: file, content: index(201) }, ctx);
    expect(text(big)).toMatch(/has been updated[\s\S]*201 lines[\s\S]*Rewrite MEMORY\.md shorter now/);
    expect(readFileSync(file, 'utf8')).toBe(index(201));
  });

  it('Edit: an edit that takes the index over 25,000 bytes asks for a rewrite', async () => {
    const ctx = toolContext();
    const file = path.join(tempDir(), 'MEMORY.md');
    writeFileSync(file, '- [a](a.md): short\n');
    await runTool(ReadTool, { file_path: file }, ctx);
    const out = await runTool(
      EditTool,
      { file_path: file, old_string: 'short', new_string: 'x'.repeat(25_000) },
      ctx,
    );
    expect(out.isError).toBeFalsy();
    expect(text(out)).toMatch(
      /over the limit of 200 lines and 25,000 bytes[\s\S]*Rewrite MEMORY\.md shorter/,
    );
  });

  it('leaves other files alone, however long', async () => {
    const ctx = toolContext();
    const out = await runTool(
      WriteTool,
      { file_path: path.join(tempDir(), 'NOTES.md'), content: index(500) },
      ctx,
    );
    expect(text(out)).not.toMatch(/MEMORY\.md/);
  });
});
