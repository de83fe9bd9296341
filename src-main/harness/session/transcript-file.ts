import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { MessageItem, TranscriptItem } from '@shared/domain/messages';
import { PermissionLogEntry, PermissionMode } from '@shared/domain/permissions';
import { AppError, errnoCode } from '../../platform/errors';
import { CostSnapshot } from '../cost/tracker';

/**
 * One session on disk: a JSONL file, one line per event, appended as it happens. A crash can lose
 * at most the line being written; readers skip and report a torn or corrupt line instead of failing.
 */
export const TranscriptLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session'),
    version: z.literal(1),
    sessionId: z.string(),
    projectPath: z.string(),
    createdAt: z.string(),
    model: z.string(),
  }),
  z.object({ type: z.literal('item'), item: TranscriptItem }),
  z.object({ type: z.literal('title'), title: z.string(), at: z.string() }),
  z.object({ type: z.literal('model'), model: z.string(), at: z.string() }),
  z.object({ type: z.literal('mode'), mode: PermissionMode, at: z.string() }),
  /** The context window was reshaped: older tool output folded (collapse) or older turns summarized (compact). */
  z.object({
    type: z.literal('context'),
    how: z.enum(['collapse', 'compact']),
    keepFromId: z.string().nullable(),
    summary: MessageItem.nullable(),
    at: z.string(),
  }),
  /** A permission decision, for the session's permission log. */
  z.object({ type: z.literal('permission'), entry: PermissionLogEntry }),
  /** Cost and usage so far; restored on resume only for the same session id. */
  z.object({ type: z.literal('cost'), snapshot: CostSnapshot, at: z.string() }),
]);
export type TranscriptLine = z.infer<typeof TranscriptLine>;

export interface TranscriptReadResult {
  lines: TranscriptLine[];
  /** Human-readable reports of lines that were skipped. */
  problems: string[];
}

export function readTranscript(file: string): TranscriptReadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = errnoCode(error) === 'ENOENT' ? 'NOT_FOUND' : 'IO_ERROR';
    throw new AppError(code, `Could not read transcript ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const raw = text.split('\n');
  const endsClean = text.endsWith('\n') || text.length === 0;
  const lines: TranscriptLine[] = [];
  const problems: string[] = [];
  raw.forEach((line, i) => {
    if (line.trim() === '') return;
    const isLast = i === raw.length - 1;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      problems.push(
        isLast && !endsClean
          ? `The last line (${i + 1}) was cut off, probably by a crash mid-write; it was skipped.`
          : `Line ${i + 1} is not valid JSON; it was skipped.`,
      );
      return;
    }
    const parsed = TranscriptLine.safeParse(data);
    if (parsed.success) lines.push(parsed.data);
    else problems.push(`Line ${i + 1} is not a transcript entry this version understands; it was skipped.`);
  });
  return { lines, problems };
}

/** An open transcript file that lines are appended to, each written through to the OS at once. */
export class TranscriptWriter {
  private fd: number | null = null;

  constructor(readonly file: string) {}

  append(line: TranscriptLine): void {
    try {
      this.fd ??= openSync(this.file, 'a', 0o600);
      writeSync(this.fd, `${JSON.stringify(line)}\n`);
    } catch (error) {
      throw new AppError('IO_ERROR', `Could not write transcript ${this.file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
