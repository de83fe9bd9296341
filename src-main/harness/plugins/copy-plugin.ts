import {
  closeSync,
  constants,
  copyFileSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { isInside } from '../tools/paths';

/** A plugin is prompts, scripts and small configs: more than this is not one (or not safe to copy). */
export const MAX_PLUGIN_BYTES = 50 * 1024 * 1024;
export const MAX_PLUGIN_FILES = 5000;
const MAX_DEPTH = 20;
// Not defined on Windows (links are checked with lstat before opening there).
const NO_FOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;

/** Why a folder cannot be copied as a plugin, in words. */
export class PluginCopyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginCopyError';
  }
}

/**
 * Copies a plugin folder to `to` (which must not exist), refusing what would make the copy reach
 * outside it: a link leading out of the folder (one inside is kept as a link, its target relative),
 * a FIFO, socket or device, and a folder past the size, file count or depth limits. `.git` is left
 * behind. On any refusal nothing of the copy is left.
 */
export function copyPluginFolder(from: string, to: string): { files: number; bytes: number } {
  const root = realpathSync.native(from);
  const budget = { files: 0, bytes: 0 };
  const walk = (dir: string, out: string, depth: number) => {
    if (depth > MAX_DEPTH) throw new PluginCopyError(`${dir} is nested more than ${MAX_DEPTH} folders deep.`);
    mkdirSync(out, { recursive: depth === 0 });
    for (const name of readdirSync(dir).sort()) {
      if (depth === 0 && name === '.git') continue;
      const src = path.join(dir, name);
      const dst = path.join(out, name);
      const st = lstatSync(src);
      if (++budget.files > MAX_PLUGIN_FILES)
        throw new PluginCopyError(`It has more than ${MAX_PLUGIN_FILES} files; that is not a plugin.`);
      if (st.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync.native(src);
        } catch {
          throw new PluginCopyError(`${src} is a link that leads nowhere.`);
        }
        if (!isInside(root, target))
          throw new PluginCopyError(`${src} is a link leading outside the plugin (to ${target}).`);
        // Kept as a link inside the copy: relative, so it points into the copy, not the original.
        symlinkSync(path.relative(path.dirname(src), target), dst);
      } else if (st.isDirectory()) walk(src, dst, depth + 1);
      else if (st.isFile()) {
        budget.bytes += st.size;
        if (budget.bytes > MAX_PLUGIN_BYTES)
          throw new PluginCopyError(
            `It is larger than ${MAX_PLUGIN_BYTES / 1024 / 1024} MB; that is not a plugin.`,
          );
        // Opened non-blocking first: a file swapped for a FIFO after the lstat is refused, not waited on.
        const fd = openSync(src, constants.O_RDONLY | constants.O_NONBLOCK | NO_FOLLOW);
        closeSync(fd);
        copyFileSync(src, dst, constants.COPYFILE_EXCL);
      } else
        throw new PluginCopyError(`${src} is not a regular file, folder or link (a FIFO, socket or device).`);
    }
  };
  try {
    walk(root, to, 0);
  } catch (error) {
    rmSync(to, { recursive: true, force: true });
    throw error;
  }
  return budget;
}
