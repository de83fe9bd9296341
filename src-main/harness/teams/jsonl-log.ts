import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { AppError, describeError, errnoCode } from '../../platform/errors';

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
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { entries: [], problems: [] };
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
      const glue = !this.endsClean && this.needsNewline();
      appendFileSync(this.file, `${glue ? '\n' : ''}${JSON.stringify(entry)}\n`);
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
  private needsNewline(): boolean {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return false;
    }
    try {
      const size = fstatSync(fd).size;
      if (size === 0) return false;
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      return last[0] !== 0x0a;
    } finally {
      closeSync(fd);
    }
  }
}
