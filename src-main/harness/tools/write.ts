import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { memoryIndexWriteNote } from '../memory/dir/memory-index';
import { diffLines } from './diff';
import { readExisting, staleReason } from './file-guard';
import { checkedDestination, resolveToolPath, writeFileNoFollow } from './paths';
import description from './prompts/write.md?raw';
import { hashContent } from './read-file-state';
import { buildTool, type ToolOutput } from './tool';

const inputSchema = z.strictObject({
  file_path: z
    .string()
    .describe('The path of the file to write (absolute, or relative to the working directory)'),
  content: z.string().describe('The full content to write'),
});

export const WriteTool = buildTool({
  name: 'Write',
  description,
  inputSchema,
  isDestructive: () => true,
  writesTo: (input, ctx) => [resolveToolPath(input.file_path, ctx.cwd)],
  // eslint-disable-next-line require-yield -- no progress to report
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const file = resolveToolPath(input.file_path, ctx.cwd);
    const existing = await readExisting(file);
    if (existing.exists) {
      const stale = staleReason(file, existing, ctx);
      if (stale) return { content: stale, isError: true };
    }
    const dest = checkedDestination(file, ctx);
    await mkdir(path.dirname(dest), { recursive: true });
    ctx.fileHistory.record({
      path: file,
      before: existing.exists ? existing.content : null,
      after: input.content,
      toolUseId: ctx.toolUseId,
      at: Date.now(),
    });
    await writeFileNoFollow(dest, input.content);
    const info = await stat(dest);
    ctx.readFileState.set(file, { hash: hashContent(input.content), mtimeMs: info.mtimeMs });
    const diff = diffLines(existing.exists ? existing.content : '', input.content);
    const lines = input.content === '' ? 0 : input.content.split('\n').length;
    const note = memoryIndexWriteNote(file, input.content);
    const done = existing.exists
      ? `The file ${file} has been updated.`
      : `File created successfully at: ${file} (${lines} lines).`;
    return {
      content: note ? `${done}\n\n${note}` : done,
      display: { kind: 'diff', path: file, created: !existing.exists, ...diff },
    };
  },
});
