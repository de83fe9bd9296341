import {
  appendFileSync,
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MessageItem, ToolUseBlock, TranscriptItem } from '@shared/domain/messages';
import { PermissionLogEntry, PermissionMode } from '@shared/domain/permissions';
import { SessionWorktree } from '@shared/domain/session';
import { AppError, errnoCode } from '../../platform/errors';
import { CostSnapshot } from '../cost/tracker';
import { BudgetLine, UsageLine } from '../cost/usage-line';

/**
 * One session on disk: a JSONL file, one line per event, appended as it happens. A crash can lose
 * at most the line being written; readers skip and report a torn or corrupt line instead of failing.
 */
/** The largest block index a `partial` line may carry: far above any real reply's block count. */
export const MAX_PARTIAL_INDEX = 4096;

export const TranscriptLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session'),
    version: z.literal(1),
    sessionId: z.string(),
    projectPath: z.string(),
    createdAt: z.string(),
    model: z.string(),
    /** For a sub-agent's or teammate's transcript: who it is and who started it. */
    agent: z
      .object({
        agentId: z.string(),
        parentId: z.string().nullable(),
        agentType: z.string(),
        name: z.string(),
        toolUseId: z.string().nullable(),
      })
      .optional(),
    /** A coordinator session: it reopens with its team and the team tools. */
    coordinator: z.literal(true).optional(),
    /** A session in its own git worktree: it reopens there (workspace/worktrees). */
    worktree: SessionWorktree.optional(),
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
  /**
   * A piece of the reply still streaming, kept as it arrives so that a crash loses at most a moment
   * of it: text to append to block `index`, or a finished tool call at `index`. The reply's `item`
   * line supersedes them; `withdrawn` says the attempt was dropped (retried, regenerated). Pieces
   * without either are a reply the app died in, shown as interrupted on the next load.
   */
  z.object({
    type: z.literal('partial'),
    itemId: z.string(),
    model: z.string(),
    // Bounded: a hostile line with a huge index must be skipped as corrupt, not rebuilt into a
    // reply array billions of slots long (which hangs the process opening the session).
    index: z.number().int().nonnegative().max(MAX_PARTIAL_INDEX),
    text: z.string().optional(),
    toolUse: ToolUseBlock.optional(),
    withdrawn: z.literal(true).optional(),
  }),
  /** A turn began or ended: a start without an end is a turn the app died in. */
  z.object({ type: z.literal('turn'), phase: z.enum(['start', 'end']), at: z.string() }),
  /**
   * A failed reply's messages taken out of the context before a retry (they stay in the transcript):
   * the retry asks again from the person's message, not from half an answer.
   */
  z.object({ type: z.literal('rewind'), dropIds: z.array(z.string()), at: z.string() }),
  /**
   * A file an agent of the session (its sub-agents and teammates too) changed: the content before
   * and after by hash (the before-image kept in the session folder, harness/rewind/history-store.ts),
   * and HEAD then, so a rewind can put it back and see what changed since.
   */
  z.object({
    type: z.literal('file'),
    path: z.string(),
    beforeHash: z.string().nullable(),
    afterHash: z.string().nullable(),
    toolUseId: z.string(),
    agentId: z.string().optional(),
    head: z.string().nullable(),
    at: z.string(),
  }),
  /** The person rewound to a message: it and every item after it are gone from the conversation. */
  z.object({ type: z.literal('cut'), fromItemId: z.string(), at: z.string() }),
  /** Cost and usage so far; restored on resume only for the same session id. */
  /** `snapshot` is the agent's total with its sub-agents'; `own` (when it has had any) its own alone. */
  z.object({ type: z.literal('cost'), snapshot: CostSnapshot, own: CostSnapshot.optional(), at: z.string() }),
  /** One API response's usage and price (what the usage ledger is rebuilt from). */
  UsageLine,
  /** A budget warning, pause or answer. */
  BudgetLine,
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

const NEWLINE = 0x0a;

function ioError(file: string, what: string, error: unknown): AppError {
  const errno = errnoCode(error);
  const why = errno === 'ENOSPC' ? 'the disk is full' : (error as Error).message;
  return new AppError('IO_ERROR', `Could not ${what} transcript ${file}: ${why}`, {
    cause: error,
    ...(errno === 'ENOSPC' ? { retryable: true, details: ['ENOSPC'] } : {}),
  });
}

/** The file a transcript's torn tails are moved to. */
export function tornFileOf(file: string): string {
  return `${file}.torn`;
}

/**
 * Makes a transcript end at a line boundary before anything is appended to it. A torn last line
 * (a crash or a full disk mid-write) would otherwise have the next line glued onto it, and that
 * message would be lost on the next read. A tail that is a whole entry lacking only its newline gets
 * the newline; anything else is moved, byte for byte, to `<file>.torn` (written before the transcript
 * is cut, so a crash in between duplicates the bytes rather than losing them). Returns a report for
 * the person, or null when there was nothing to mend.
 */
export function repairTornTail(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, 'r+');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw ioError(file, 'open', error);
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return null;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] === NEWLINE) return null;
    const text = readFileSync(fd);
    const cut = text.lastIndexOf(NEWLINE) + 1;
    const tail = text.subarray(cut);
    if (isWholeLine(tail)) {
      writeSync(fd, '\n', size);
      return null;
    }
    appendFileSync(tornFileOf(file), Buffer.concat([tail, Buffer.from('\n')]), { mode: 0o600 });
    ftruncateSync(fd, cut);
    const lineNo = text.subarray(0, cut).filter((b) => b === NEWLINE).length + 1;
    return (
      `The last line (${lineNo}) was cut off, probably by a crash mid-write; its ${tail.length} bytes ` +
      `were moved to ${path.basename(tornFileOf(file))} so that new lines start on a line of their own.`
    );
  } catch (error) {
    throw error instanceof AppError ? error : ioError(file, 'mend the end of', error);
  } finally {
    closeSync(fd);
  }
}

function isWholeLine(bytes: Buffer): boolean {
  try {
    return TranscriptLine.safeParse(JSON.parse(bytes.toString('utf8'))).success;
  } catch {
    return false;
  }
}

/**
 * Creates a new transcript holding its first lines, or nothing at all: it must not exist yet, and
 * if the lines cannot all be written (a full disk) the file is removed again, so a session that could
 * not be saved leaves no trace to be listed.
 */
export function createTranscript(file: string, lines: readonly TranscriptLine[]): void {
  const text = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') {
      try {
        unlinkSync(file);
      } catch {
        // Never created: nothing to remove.
      }
    }
    throw ioError(file, 'create', error);
  }
}

/**
 * An open transcript file that lines are appended to, each written through to the OS at once. The
 * file's end is mended before the first append (see repairTornTail), and a line that cannot be
 * written whole is cut back off, so the file always ends at a line boundary.
 */
export class TranscriptWriter {
  private fd: number | null = null;
  private size = 0;

  constructor(readonly file: string) {}

  append(line: TranscriptLine): void {
    if (this.fd === null) {
      repairTornTail(this.file);
      try {
        this.fd = openSync(this.file, 'a', 0o600);
        this.size = fstatSync(this.fd).size;
      } catch (error) {
        throw ioError(this.file, 'open', error);
      }
    }
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
    try {
      // A regular file takes a short write only when the disk fills up mid-line; the next write
      // then fails with ENOSPC, which is the error the person should see.
      let written = 0;
      while (written < bytes.length) written += writeSync(this.fd, bytes, written);
      this.size += written;
    } catch (error) {
      try {
        ftruncateSync(this.fd, this.size);
      } catch {
        // Nothing more to do here: the next open moves whatever is left aside.
      }
      throw ioError(this.file, 'write', error);
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
