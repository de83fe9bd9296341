import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { TokenCounts } from '@shared/domain/cost-report';
import { TokenUsage } from '@shared/domain/usage';
import { describeError, errnoCode } from '../../../platform/errors';
import { priceResponse, tokenCountsOf } from '../pricing';
import { UsageLine } from '../usage-line';
import type { TranscriptInfo, UsageRecord } from '../usage-record';

/**
 * Reads one Carapace transcript into usage records: its `usage` lines (one per API response, priced
 * when the response arrived), and, for responses written before usage lines existed, the assistant
 * `item` messages that carry usage, an API id and a model, priced now with the current table.
 *
 * Fast on purpose (the first build reads every transcript): a line's type is read from its first
 * bytes, so the bulk of a transcript (messages, streamed pieces, tool output) is never parsed.
 * Corrupt and implausible lines are skipped and reported, never fatal.
 */

/** Longer lines are skipped unread: usage, session and title lines are small. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Beyond any real response: a hostile line's figures must not swamp every total. */
const MAX_TOKENS = 100_000_000;
const MAX_WEB_SEARCHES = 100_000;
/** $10,000 for one response. */
const MAX_COST_MICROS = 10_000_000_000;
const MAX_TITLE_CHARS = 200;
const MAX_LISTED_PROBLEMS = 20;

export interface CarapaceFile {
  /** null: not a transcript (its first line is not a `session` line): a mailbox, a roster. */
  info: TranscriptInfo | null;
  records: UsageRecord[];
  problems: string[];
  /** Earliest record time, for the order duplicates are resolved in across files. */
  earliestAt: number | null;
}

const SessionHead = z.object({
  type: z.literal('session'),
  sessionId: z.string().min(1),
  projectPath: z.string(),
  agent: z.object({ agentId: z.string(), agentType: z.string(), name: z.string() }).optional(),
});

const AssistantWithUsage = z.object({
  kind: z.literal('message'),
  role: z.literal('assistant'),
  createdAt: z.string(),
  model: z.string().min(1),
  usage: TokenUsage,
  apiId: z.string().min(1),
});

const TYPE_HEAD = /^\s*\{\s*"type"\s*:\s*"([a-z_]+)"/;
/** Line types that never hold anything the ledger needs. */
const IGNORED = new Set(['partial', 'cost', 'permission', 'context', 'mode', 'model', 'rewind', 'budget']);

export function readCarapaceFile(file: string): CarapaceFile {
  const problems: string[] = [];
  let unlisted = 0;
  const problem = (text: string) => {
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push(`${file}: ${text}`);
    else unlisted++;
  };
  const none = (): CarapaceFile => ({ info: null, records: [], problems, earliestAt: null });

  let buf: Buffer;
  try {
    // Where O_NOFOLLOW does not exist (Windows), links are refused before opening.
    if (NO_FOLLOW === 0 && lstatSync(file).isSymbolicLink()) {
      problem('skipped: a symbolic link (links are not followed).');
      return none();
    }
    const read = readRegularFile(file);
    if (read === null) {
      problem('skipped: not a regular file (a FIFO, socket or device is never read).');
      return none();
    }
    buf = read;
  } catch (error) {
    problem(
      errnoCode(error) === 'ELOOP'
        ? 'skipped: a symbolic link (links are not followed).'
        : `could not be read (${describeError(error)}).`,
    );
    return none();
  }

  let info: TranscriptInfo | null = null;
  const records: UsageRecord[] = [];
  const keys = new Set<string>();
  let title: string | null = null;
  let firstPrompt: string | null = null;
  let turnStarts = 0;
  let userPrompts = 0;
  /** Assistant items with an API id, parsed only when usage lines do not cover them. */
  const candidates: { start: number; end: number; lineNo: number; turn: number }[] = [];

  let lineNo = 0;
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(0x0a, start);
    if (end === -1) end = buf.length;
    lineNo++;
    const lineStart = start;
    start = end + 1;
    if (end - lineStart === 0) continue;
    if (end - lineStart > MAX_LINE_BYTES) {
      if (info === null) return none();
      problem(`line ${lineNo} skipped: ${end - lineStart} bytes is longer than any usage line can be.`);
      continue;
    }
    const head = TYPE_HEAD.exec(buf.toString('latin1', lineStart, Math.min(end, lineStart + 48)));
    let type = head?.[1] ?? null;
    if (info !== null && type !== null && IGNORED.has(type)) continue;
    if (type === 'item') {
      // Only the first prompt (a title) and assistant replies with an API id matter.
      // The role comes right after the item's id; the API id at its end.
      const itemHead = buf.toString('utf8', lineStart, Math.min(end, lineStart + 300));
      if (itemHead.includes('"role":"assistant"')) {
        if (buf.subarray(lineStart, end).includes('"apiId"'))
          candidates.push({ start: lineStart, end, lineNo, turn: turnStarts || userPrompts });
        continue;
      }
      if (firstPrompt !== null && turnStarts > 0) continue;
    }
    let o: Record<string, unknown>;
    try {
      const json: unknown = JSON.parse(buf.toString('utf8', lineStart, end));
      if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not an object');
      o = json as Record<string, unknown>;
    } catch {
      if (info === null) return none();
      problem(
        end === buf.length
          ? `line ${lineNo} skipped: cut off (probably a crash mid-write).`
          : `line ${lineNo} skipped: not valid JSON.`,
      );
      continue;
    }
    type = typeof o.type === 'string' ? o.type : null;
    if (info === null) {
      const s = SessionHead.safeParse(o);
      if (!s.success) return none();
      info = {
        source: 'carapace',
        sessionId: sessionIdOf(file, s.data.sessionId, s.data.agent !== undefined),
        projectPath: s.data.projectPath,
        title: '',
        agent: s.data.agent
          ? { agentId: s.data.agent.agentId, name: s.data.agent.name, agentType: s.data.agent.agentType }
          : null,
      };
      continue;
    }
    if (type === 'usage') {
      const r = recordOfUsage(o, info);
      if (typeof r === 'string') problem(`line ${lineNo} skipped: ${r}`);
      else if (r.key === null || !keys.has(r.key)) {
        if (r.key !== null) keys.add(r.key);
        records.push(r);
      }
    } else if (type === 'title') {
      if (typeof o.title === 'string' && o.title.trim() !== '') title = cleanTitle(o.title);
    } else if (type === 'turn') {
      if (o.phase === 'start') turnStarts++;
    } else if (type === 'item') {
      const prompt = promptOf(o.item);
      if (prompt !== null) {
        userPrompts++;
        firstPrompt ??= prompt;
      }
    }
  }
  if (info === null) return none();

  // Responses from before usage lines were written: their messages carry the usage.
  for (const c of candidates) {
    let item: unknown;
    try {
      item = (JSON.parse(buf.toString('utf8', c.start, c.end)) as { item?: unknown }).item;
    } catch {
      problem(`line ${c.lineNo} skipped: not valid JSON.`);
      continue;
    }
    const m = AssistantWithUsage.safeParse(item);
    if (!m.success || keys.has(m.data.apiId)) continue;
    const at = Date.parse(m.data.createdAt);
    if (Number.isNaN(at)) continue;
    const tokens = tokenCountsOf(m.data.usage, 0, 0);
    if (!plausible(tokens)) {
      problem(`line ${c.lineNo} skipped: its token counts are beyond any real response.`);
      continue;
    }
    keys.add(m.data.apiId);
    const price = priceResponse(m.data.model, tokens);
    records.push({
      source: 'carapace',
      key: m.data.apiId,
      at,
      sessionId: info.sessionId,
      agentId: info.agent?.agentId ?? null,
      model: m.data.model,
      tokens,
      costMicros: price.kind === 'priced' ? price.micros : price.kind === 'demo' ? 0 : null,
      priceVersion: price.kind === 'priced' ? price.version : null,
      turn: c.turn,
    });
  }
  if (unlisted > 0) problems.push(`${file}: ${unlisted} more problems like these.`);
  info.title = title ?? firstPrompt ?? '';
  let earliestAt: number | null = null;
  for (const r of records) if (earliestAt === null || r.at < earliestAt) earliestAt = r.at;
  return { info, records, problems, earliestAt };
}

// Not defined on Windows (no FIFOs to fear there, and links are checked before opening).
const NO_FOLLOW = (constants as Partial<typeof constants>).O_NOFOLLOW ?? 0;
const NON_BLOCK = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;

/**
 * A regular file's bytes, or null for anything else, decided on the open file (no window between a
 * check and the open): a FIFO opens at once with O_NONBLOCK (and fstat refuses it) instead of
 * waiting forever for a writer; a link is refused by O_NOFOLLOW (ELOOP) instead of followed.
 */
function readRegularFile(file: string): Buffer | null {
  const fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const chunks: Buffer[] = [];
    let total = 0;
    // Sized by fstat, read until the end (the file may have grown since).
    let buf = Buffer.allocUnsafe(Math.max(st.size, 64 * 1024));
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (n === buf.length) buf = Buffer.allocUnsafe(buf.length);
      else buf = buf.subarray(n);
    }
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

function recordOfUsage(o: Record<string, unknown>, info: TranscriptInfo): UsageRecord | string {
  const p = UsageLine.safeParse(o);
  if (!p.success) {
    const where = p.error.issues[0]?.path.join('.') ?? '?';
    return `its usage is not in the expected form (${where}).`;
  }
  const u = p.data;
  const at = Date.parse(u.at);
  if (Number.isNaN(at)) return 'its time is not a date.';
  if (!plausible(u.tokens) || (u.costMicros !== null && u.costMicros > MAX_COST_MICROS))
    return 'its figures are beyond any real response.';
  return {
    source: 'carapace',
    key: u.apiId,
    at,
    sessionId: info.sessionId,
    agentId: info.agent?.agentId ?? null,
    model: u.model,
    tokens: u.tokens,
    costMicros: u.costMicros,
    priceVersion: u.priceVersion,
    turn: u.turn,
  };
}

function plausible(t: TokenCounts): boolean {
  return (
    t.input <= MAX_TOKENS &&
    t.output <= MAX_TOKENS &&
    t.cacheWrite5m <= MAX_TOKENS &&
    t.cacheWrite1h <= MAX_TOKENS &&
    t.cacheRead <= MAX_TOKENS &&
    t.webSearches <= MAX_WEB_SEARCHES
  );
}

/** A sub-agent's or teammate's file lives in `<sessionId>/subagents/`: it belongs to that session. */
function sessionIdOf(file: string, own: string, isAgent: boolean): string {
  const dir = path.dirname(file);
  if (isAgent && path.basename(dir) === 'subagents') return path.basename(path.dirname(dir));
  return own;
}

/** The person's message (trimmed, one line), or null for tool results, nudges and assistant items. */
function promptOf(item: unknown): string | null {
  if (typeof item !== 'object' || item === null) return null;
  const m = item as { kind?: unknown; role?: unknown; origin?: unknown; content?: unknown };
  if (m.kind !== 'message' || m.role !== 'user') return null;
  if (m.origin !== undefined && m.origin !== 'user') return null;
  if (!Array.isArray(m.content)) return null;
  const text = (m.content as unknown[])
    .map((b) => {
      const block = b as { type?: unknown; text?: unknown } | null;
      return block?.type === 'text' && typeof block.text === 'string' ? block.text : '';
    })
    .filter((t) => t !== '')
    .join(' ');
  const title = cleanTitle(text);
  return title === '' ? null : title;
}

function cleanTitle(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_TITLE_CHARS ? `${one.slice(0, MAX_TITLE_CHARS - 1)}…` : one;
}
