import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { memoryIndexWriteNote } from '../memory/dir/memory-index';
import { diffLines } from './diff';
import { planEdit } from './edit-plan';
import { readExisting, staleReason } from './file-guard';
import { checkedDestination, resolveToolPath, writeFileNoFollow } from './paths';
import description from './prompts/edit.md?raw';
import { hashContent } from './read-file-state';
import { buildTool, type ToolOutput } from './tool';

const inputSchema = z.strictObject({
  file_path: z
    .string()
    .describe('The path of the file to modify (absolute, or relative to the working directory)'),
  old_string: z.string().describe('The exact text to replace'),
  new_string: z.string().describe('The text to replace it with (must differ from old_string)'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false)'),
});

function fail(message: string): ToolOutput {
  return { content: message, isError: true };
}

export const EditTool = buildTool({
  name: 'Edit',
  description,
  inputSchema,
  writesTo: (input, ctx) => [resolveToolPath(input.file_path, ctx.cwd)],
  // eslint-disable-next-line require-yield -- no progress to report
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const file = resolveToolPath(input.file_path, ctx.cwd);
    const existing = await readExisting(file);
    if (existing.exists) {
      const stale = staleReason(file, existing, ctx);
      // An identical old/new pair is reported first, as before: it needs no Read.
      if (stale && input.old_string !== input.new_string) return fail(stale);
    }
    const plan = planEdit(file, existing, input);
    if (!plan.ok) return fail(plan.message);
    const { before, after } = plan;
    ctx.fileHistory.record({
      path: file,
      before: existing.exists ? before : null,
      after,
      toolUseId: ctx.toolUseId,
      at: Date.now(),
    });
    const dest = checkedDestination(file, ctx);
    if (plan.created) await mkdir(path.dirname(dest), { recursive: true });
    await writeFileNoFollow(dest, after);
    const info = await stat(dest);
    ctx.readFileState.set(file, { hash: hashContent(after), mtimeMs: info.mtimeMs });
    const diff = diffLines(before, after);
    const done = `The file ${file} has been updated (${diff.added} line${diff.added === 1 ? '' : 's'} added, ${diff.removed} removed).`;
    // MEMORY.md is loaded whole into each session, so an index grown past its limits must shrink.
    const note = memoryIndexWriteNote(file, after);
    return {
      content: note ? `${done}\n\n${note}` : done,
      display: { kind: 'diff', path: file, created: !existing.exists, ...diff },
    };
  },
});
