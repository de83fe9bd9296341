import type { ExistingFile } from './file-guard';

export interface EditInput {
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

/** What an Edit would write, or why it would fail; the same answer for the tool and its approval preview. */
export type EditPlan =
  { ok: true; created: boolean; before: string; after: string } | { ok: false; message: string };

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) count++;
  return count;
}

/** Applies an Edit's replacement to the file as it is now, without writing anything. */
export function planEdit(file: string, existing: ExistingFile, input: EditInput): EditPlan {
  if (input.old_string === input.new_string)
    return { ok: false, message: 'No changes to make: old_string and new_string are exactly the same.' };
  if (!existing.exists) {
    if (input.old_string !== '')
      return {
        ok: false,
        message: `File does not exist: ${file}. To create it, use Write (or Edit with an empty old_string).`,
      };
    return { ok: true, created: true, before: '', after: input.new_string };
  }
  if (input.old_string === '')
    return { ok: false, message: `old_string is empty but ${file} exists; give the text to replace.` };
  const count = countOccurrences(existing.content, input.old_string);
  if (count === 0)
    return {
      ok: false,
      message: `String to replace not found in ${file}. It must match exactly, whitespace included; Read the file again if unsure.`,
    };
  if (count > 1 && input.replace_all !== true)
    return {
      ok: false,
      message: `Found ${count} matches of the string to replace, but replace_all is false. To replace only one occurrence, add surrounding lines to old_string so it is unique; to replace all, set replace_all to true.`,
    };
  const before = existing.content;
  // split/join, not String.replace: `$&` and friends in new_string must stay literal.
  const after =
    input.replace_all === true
      ? before.split(input.old_string).join(input.new_string)
      : before.replace(input.old_string, () => input.new_string);
  return { ok: true, created: false, before, after };
}
