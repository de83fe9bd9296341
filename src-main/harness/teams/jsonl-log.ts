import {
  appendFileSync,
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
} from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { AppError, describeError, errnoCode } from '../../platform/errors';

/**
 * A team file larger than this is not read back. Mailboxes and the roster grow by at most a message
 * (100,000 characters) a line; a file far beyond that is damage or an attack, and reading it whole
 * (or an endless device linked in its place) must not stall or exhaust the main process.
 */
export const MAX_TEAM_FILE_BYTES = 64 * 1024 * 1024;

// Not defined on Windows (no FIFOs there to block on).
const NO_FOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
const NON_BLOCK = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;

/** The file's text, if it is a plain file (not a link, FIFO, device or folder) of a sane size. */
function readPlainFile(file: string): string {
  // O_NONBLOCK: opening a FIFO returns at once (and is refused below) instead of waiting forever.
  const fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error('it is not a regular file');
    if (st.size > MAX_TEAM_FILE_BYTES)
      throw new Error(`it is larger than ${MAX_TEAM_FILE_BYTES / 1024 / 1024} MB`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * An append-only JSONL file of one kind of entry (a mailbox, the team's roster). A crash can tear
 * at most the line being written; reading skips and reports a torn or corrupt line instead of
 * failing, and the next append starts on a fresh line so it is never glued to a torn one.
 */
export class JsonlLog<T> {
  /** Known to end on a newline (checked once, then kept true by our own appends). */
  private endsClean = false;

  constructor(
    readonly file: string,
    private readonly schema: z.ZodType<T>,
    /** How problems name the file for a person ("worker alice's mailbox"). */
    private readonly label: string,
  ) {}

  /** Every valid entry in order, and a report of each line skipped. A missing file is empty. */
  read(): { entries: T[]; problems: string[] } {
    let text: string;
    try {
      text = readPlainFile(this.file);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { entries: [], problems: [] };
      // O_NOFOLLOW refuses a link with ELOOP: say what it is.
      if (errnoCode(error) === 'ELOOP')
        return { entries: [], problems: [`Could not read ${this.label}: it is a link, not a file`] };
      return { entries: [], problems: [`Could not read ${this.label}: ${describeError(error)}`] };
    }
    const entries: T[] = [];
    const problems: string[] = [];
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        const torn = i === lines.length - 1 && !text.endsWith('\n');
        problems.push(
          torn
            ? `The last line of ${this.label} was cut off (probably a crash mid-write); it was skipped.`
            : `Line ${i + 1} of ${this.label} is not valid JSON; it was skipped.`,
        );
        return;
      }
      const parsed = this.schema.safeParse(data);
      if (parsed.success) entries.push(parsed.data);
      else
        problems.push(
          `Line ${i + 1} of ${this.label} is not an entry this version understands; it was skipped.`,
        );
    });
    return { entries, problems };
  }

  append(entry: T): void {
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      // Appended through a descriptor that is checked to be a plain file: a FIFO put in its place
      // must not block the main process (O_NONBLOCK), nor a link send the team's mail elsewhere.
      const fd = openSync(
        this.file,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW | NON_BLOCK,
        0o600,
      );
      try {
        const st = fstatSync(fd);
        if (!st.isFile()) throw new Error('it is not a regular file');
        const glue = !this.endsClean && this.needsNewline(st.size);
        appendFileSync(fd, `${glue ? '\n' : ''}${JSON.stringify(entry)}\n`);
      } finally {
        closeSync(fd);
      }
      this.endsClean = true;
    } catch (error) {
      const full = errnoCode(error) === 'ENOSPC';
      throw new AppError(
        'IO_ERROR',
        `Could not write to ${this.label}: ${full ? 'the disk is full' : describeError(error)}`,
        { cause: error, ...(full ? { retryable: true } : {}) },
      );
    }
  }

  /** True when the file ends inside a line (a torn write): the next entry must start a new one. */
  private needsNewline(size: number): boolean {
    if (size === 0) return false;
    // The write descriptor is append-only; its last byte is read through a descriptor of its own.
    const fd = openSync(this.file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
    try {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      return last[0] !== 0x0a;
    } finally {
      closeSync(fd);
    }
  }
}
