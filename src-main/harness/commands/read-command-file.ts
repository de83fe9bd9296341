import type { Dirent } from 'node:fs';
import { readDefinitionFile } from '../definition-files/read-definition-file';

/** A larger file is not a prompt anybody wrote by hand; it is reported and skipped. */
export const MAX_COMMAND_FILE_BYTES = 256 * 1024;

/**
 * One command file's text, or why it is not loaded. A link is followed only when it leads inside
 * `realDir` (the commands folder, where it really is): a cloned repository cannot make a command
 * of `~/.ssh/id_rsa` by linking to it.
 */
export function readCommandFile(file: string, entry: Dirent, realDir: string): string | { problem: string } {
  return readDefinitionFile(file, entry, realDir, {
    folder: 'commands folder',
    maxBytes: MAX_COMMAND_FILE_BYTES,
  });
}
