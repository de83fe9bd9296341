import type { ChangedFile } from '@shared/ipc/contract/changes';

/**
 * A commit message made from the changed files, without a model call: a subject that names the file
 * (or the count and the folder they share) and a body listing each file with its counts. It is a
 * starting point the person edits before committing; it never leaves the machine.
 */

const VERB: Record<ChangedFile['status'], string> = {
  added: 'Add',
  untracked: 'Add',
  modified: 'Update',
  deleted: 'Delete',
  renamed: 'Rename',
  typechange: 'Update',
};

const LETTER: Record<ChangedFile['status'], string> = {
  added: 'A',
  untracked: 'A',
  modified: 'M',
  deleted: 'D',
  renamed: 'R',
  typechange: 'T',
};

/**
 * A path as the message names it: one with a line break or another control character (git lists
 * `x\n\nSigned-off-by: …` as it is) is quoted, so a file name cannot forge the subject, a trailer or
 * another line of the body.
 */
// eslint-disable-next-line no-control-regex -- exactly the characters that break or hide a line
const BREAKING = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;
const named = (p: string) =>
  BREAKING.test(p)
    ? JSON.stringify(p).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
    : p;

/** The folder every path shares ('' when none). */
function commonFolder(paths: readonly string[]): string {
  const split = paths.map((p) => p.split('/').slice(0, -1));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n += 1;
  return first.slice(0, n).join('/');
}

export function commitMessageFor(files: readonly ChangedFile[]): string {
  if (files.length === 0) return '';
  const only = files.length === 1 ? files[0] : undefined;
  let subject: string;
  if (only) {
    subject =
      only.status === 'renamed' && only.oldPath
        ? `Rename ${named(only.oldPath)} to ${named(only.path)}`
        : `${VERB[only.status]} ${named(only.path)}`;
  } else {
    const verbs = new Set(files.map((f) => VERB[f.status]));
    const verb = verbs.size === 1 ? [...verbs][0] : 'Update';
    const folder = commonFolder(files.map((f) => f.path));
    subject = `${verb} ${files.length} files${folder ? ` in ${named(folder)}/` : ''}`;
  }
  const body = files.slice(0, 50).map((f) => {
    const counts = f.binary
      ? ' (binary)'
      : f.additions === null
        ? ''
        : ` (+${f.additions} -${f.deletions ?? 0})`;
    return `- ${LETTER[f.status]} ${f.oldPath ? `${named(f.oldPath)} -> ` : ''}${named(f.path)}${counts}`;
  });
  if (files.length > 50) body.push(`- … and ${files.length - 50} more`);
  return `${subject}\n\n${body.join('\n')}\n`;
}
