import { readCappedText } from '../definition-files/read-definition-file';

/** A larger SKILL.md is not instructions anybody wrote by hand, and would fill the context window. */
export const MAX_SKILL_FILE_BYTES = 512 * 1024;

/**
 * A SKILL.md's text (or a plugin's JSON), or why it was not read. Never opens a FIFO or a device,
 * never follows a link (the caller resolves and checks links first), and never reads past the size
 * limit, so a 50 MB file costs one lstat, not 50 MB of memory.
 */
export function readSkillText(file: string): string | { problem: string } {
  return readCappedText(file, MAX_SKILL_FILE_BYTES, {
    notAFile: 'it is not a regular file (a FIFO, socket or device is never read)',
  });
}
