import path from 'node:path';
import { isInside, realPathOf, validateMemoryPath } from '../harness/memory/dir/validate-memory-path';
import { AppError } from '../platform/errors';
import { rootAccepts, type ScopeRoot } from './memory-scopes';

/**
 * The one gate between a name sent by the renderer and a path on disk. The renderer is untrusted:
 * a name is relative, plain, `.md`, never into `.git` or the trash, and once every symlink is resolved
 * it must still lie inside its scope's root. Every refusal is an INVALID_INPUT with the reason.
 */

function refuse(name: string, why: string): AppError {
  const shown = JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);
  return new AppError('INVALID_INPUT', `The file name ${shown} ${why}.`);
}

/** Checks the name's form (no disk access) and returns it NFC-normalised. */
export function checkName(raw: string): string {
  if (raw.includes('\0')) throw refuse(raw, 'contains a NUL byte');
  const name = raw.normalize('NFC');
  if (name.length === 0) throw refuse(raw, 'is empty');
  if (name.includes('\\')) throw refuse(raw, 'contains a backslash; use "/" between folders');
  if (path.posix.isAbsolute(name) || path.win32.isAbsolute(name) || /^[a-zA-Z]:/.test(name))
    throw refuse(raw, 'is absolute; give a name inside the scope');
  if (name.startsWith('~')) throw refuse(raw, 'starts with "~"; give a name inside the scope');
  const parts = name.split('/');
  if (parts.some((p) => p === '..')) throw refuse(raw, 'leaves its folder ("..")');
  if (parts.some((p) => p === '' || p === '.')) throw refuse(raw, 'has an empty or "." part');
  if (parts.some((p) => p.toLowerCase() === '.git')) throw refuse(raw, 'points into a .git folder');
  if (parts.some((p) => p === '.trash')) throw refuse(raw, 'points into the trash; restore it instead');
  // Control characters (newlines, escapes) make a name that shows as something else in a listing.
  for (let i = 0; i < name.length; i++) {
    if (name.charCodeAt(i) < 0x20) throw refuse(raw, 'contains a control character');
  }
  if (!name.toLowerCase().endsWith('.md') || name.length < 4) throw refuse(raw, 'does not end in ".md"');
  return name;
}

/**
 * The real path a name addresses in a root. The file need not exist; the deepest existing folder is
 * resolved, so a symlink anywhere on the way that leads out of the root is caught.
 */
export function resolveName(root: ScopeRoot, raw: string): { name: string; path: string } {
  const name = checkName(raw);
  if (!rootAccepts(root, name)) throw refuse(raw, `is not a file of ${root.label}`);
  const realRoot = realPathOf(root.dir);
  if (!realRoot.ok) throw new AppError('IO_ERROR', `${root.label} cannot be read: ${realRoot.message}`);
  const lexical = path.join(root.dir, ...name.split('/'));
  const real = realPathOf(lexical);
  if (!real.ok) throw refuse(raw, `cannot be resolved: ${real.message}`);
  if (!isInside(real.path, realRoot.path))
    throw refuse(raw, `leads through a symbolic link to ${real.path}, outside ${root.label}`);
  if (real.path.split(path.sep).some((p) => p.toLowerCase() === '.git'))
    throw refuse(raw, 'leads into a .git folder');
  if (root.memoryDir) {
    // Memory folders also pass the harness's own check, the one the model's writes go through.
    const checked = validateMemoryPath(lexical, root.dir);
    if (!checked.ok) throw refuse(raw, `is refused: ${checked.message}`);
  }
  return { name, path: real.path };
}
