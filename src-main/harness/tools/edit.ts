import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { diffLines } from './diff';
import { readExisting, staleReason } from './file-guard';
import { resolveToolPath } from './paths';
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

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) count++;
  return count;
}

export const EditTool = buildTool({
  name: 'Edit',
  description,
  inputSchema,
  writesTo: (input, ctx) => [resolveToolPath(input.file_path, ctx.cwd)],
  // eslint-disable-next-line require-yield -- no progress to report
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const file = resolveToolPath(input.file_path, ctx.cwd);
    if (input.old_string === input.new_string)
      return fail('No changes to make: old_string and new_string are exactly the same.');
    const existing = await readExisting(file);
    let before: string;
    let after: string;
    if (!existing.exists) {
      if (input.old_string !== '')
        return fail(
          `File does not exist: ${file}. To create it, use Write (or Edit with an empty old_string).`,
        );
      before = '';
      after = input.new_string;
      await mkdir(path.dirname(file), { recursive: true });
    } else {
      const stale = staleReason(file, existing, ctx);
      if (stale) return fail(stale);
      if (input.old_string === '')
        return fail(`old_string is empty but ${file} exists; give the text to replace.`);
      const count = countOccurrences(existing.content, input.old_string);
      if (count === 0)
        return fail(
          `String to replace not found in ${file}. It must match exactly, whitespace included; Read the file again if unsure.`,
        );
      if (count > 1 && input.replace_all !== true) {
        return fail(
          `Found ${count} matches of the string to replace, but replace_all is false. To replace only one occurrence, add surrounding lines to old_string so it is unique; to replace all, set replace_all to true.`,
        );
      }
      before = existing.content;
      // split/join, not String.replace: `$&` and friends in new_string must stay literal.
      after =
        input.replace_all === true
          ? before.split(input.old_string).join(input.new_string)
          : before.replace(input.old_string, () => input.new_string);
    }
    ctx.fileHistory.record({
      path: file,
      before: existing.exists ? before : null,
      toolUseId: ctx.toolUseId,
      at: Date.now(),
    });
    await writeFile(file, after, 'utf8');
    const info = await stat(file);
    ctx.readFileState.set(file, { hash: hashContent(after), mtimeMs: info.mtimeMs });
    const diff = diffLines(before, after);
    return {
      content: `The file ${file} has been updated (${diff.added} line${diff.added === 1 ? '' : 's'} added, ${diff.removed} removed).`,
      display: { kind: 'diff', path: file, created: !existing.exists, ...diff },
    };
  },
});
