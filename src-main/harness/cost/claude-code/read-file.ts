import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { TokenCounts } from '@shared/domain/cost-report';
import { describeError } from '../../../platform/errors';
import type { TranscriptInfo, UsageRecord } from '../usage-record';
import { priceResponse } from '../pricing';
import { readLinesOf } from './line-reader';
import {
  type ClaudeCodeUsageLine,
  ClaudeCodeSummaryLine,
  ClaudeCodeUsageLine as UsageLineSchema,
  ClaudeCodeUserLine,
} from './line-schema';

/**
 * Reads one of Claude Code's JSONL transcripts into usage records, the way ccusage counts them
 * (its `daily` report is the reference the parity test holds us to):
 * - a record per line with `message.usage`, keyed `${message.id}:${requestId}`; a line missing
 *   either is never deduplicated; of lines sharing a key the first one read counts (Claude Code
 *   writes one line per content block of a reply, all with the same ids);
 * - cost in ccusage's default `auto` mode: the line's `costUSD` when present, else its tokens priced.
 *   We price with our own table, where ccusage uses LiteLLM's, and we differ where our table is the
 *   more exact: a 1 h cache write at 2 × input (ccusage prices every cache write as a 5 min one), web
 *   searches at their per-request price (ccusage ignores them), an unknown model unpriced (ccusage: $0).
 * Claude Code's placeholder model `<synthetic>` (local error messages, no tokens) is left out.
 * Corrupt or odd lines are skipped and reported, never fatal.
 */

/** A line longer than this is skipped unread: usage lines are small, tool output can be huge. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Problems listed one by one per file; the rest are counted. */
const MAX_LISTED_PROBLEMS = 20;
const MAX_TITLE_CHARS = 200;
const SYNTHETIC_MODEL = '<synthetic>';
/** What a `costUSD` figure was priced with: Claude Code itself, not our table. */
export const CLAUDE_CODE_COST_VERSION = 'claude-code-costUSD';

export interface ClaudeCodeFile {
  info: TranscriptInfo;
  records: UsageRecord[];
  problems: string[];
  /**
   * The earliest `timestamp` of any line (epoch ms), null when none: ccusage reads files in this
   * order and keeps the first of duplicated records, so a merge across files must too.
   */
  earliestAt: number | null;
}

export function readClaudeCodeFile(file: string): ClaudeCodeFile {
  const info: TranscriptInfo = {
    source: 'claude-code',
    sessionId: path.basename(file, '.jsonl'),
    projectPath: projectSlugOf(file),
    title: '',
    agent: agentOfFile(file),
  };
  const records: UsageRecord[] = [];
  const problems: string[] = [];
  let unlisted = 0;
  const problem = (text: string) => {
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push(`${file}: ${text}`);
    else unlisted++;
  };

  try {
    if (lstatSync(file).isSymbolicLink()) {
      problem('skipped: a symbolic link (only files inside the projects folder are read).');
      return { info, records, problems, earliestAt: null };
    }
  } catch (error) {
    problem(`could not be read (${describeError(error)}).`);
    return { info, records, problems, earliestAt: null };
  }

  const seen = new Set<string>();
  // One object, not loose variables: the line callback writes these and TS does not see closures.
  const st = {
    sessionId: null as string | null,
    cwd: null as string | null,
    summary: null as string | null,
    firstPrompt: null as string | null,
    turn: 0,
    earliestAt: null as number | null,
  };

  try {
    readLinesOf(file, { maxLineBytes: MAX_LINE_BYTES }, (e) => {
      if (e.kind === 'too-long') {
        problem(`line ${e.lineNo} skipped: ${e.bytes} bytes is longer than any usage line can be.`);
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(e.text);
      } catch {
        problem(`line ${e.lineNo} skipped: not valid JSON.`);
        return;
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        problem(`line ${e.lineNo} skipped: not a JSON object.`);
        return;
      }
      const o = json as Record<string, unknown>;
      if (typeof o.timestamp === 'string') {
        const at = Date.parse(o.timestamp);
        if (!Number.isNaN(at) && (st.earliestAt === null || at < st.earliestAt)) st.earliestAt = at;
      }
      if (st.sessionId === null && typeof o.sessionId === 'string' && o.sessionId !== '')
        st.sessionId = o.sessionId;
      if (st.cwd === null && typeof o.cwd === 'string' && o.cwd !== '') st.cwd = o.cwd;

      if (o.type === 'summary') {
        const s = ClaudeCodeSummaryLine.safeParse(o);
        if (s.success && st.summary === null) st.summary = cleanTitle(s.data.summary);
        return;
      }
      if (o.type === 'user') {
        const prompt = promptOf(o);
        if (prompt !== null) {
          st.turn++;
          st.firstPrompt ??= prompt;
        }
      }
      const message = o.message;
      if (typeof message !== 'object' || message === null || !('usage' in message)) return;

      const parsed = UsageLineSchema.safeParse(o);
      if (!parsed.success) {
        problem(
          `line ${e.lineNo} skipped: its usage is not in the expected form (${parsed.error.issues[0]?.path.join('.') ?? '?'}).`,
        );
        return;
      }
      const line = parsed.data;
      if (line.message.model === SYNTHETIC_MODEL) return;
      // The form check lets through dates that do not exist (month 13): such a record would land
      // on no day, or on the first day of every range.
      if (Number.isNaN(Date.parse(line.timestamp))) {
        problem(`line ${e.lineNo} skipped: its timestamp is not a real date.`);
        return;
      }
      const key =
        line.message.id !== undefined && line.requestId !== undefined
          ? `${line.message.id}:${line.requestId}`
          : null;
      if (key !== null) {
        if (seen.has(key)) return;
        seen.add(key);
      }
      records.push(recordOf(line, st.turn, info.agent?.agentId ?? null));
    });
  } catch (error) {
    problem(`could not be read (${describeError(error)}).`);
  }
  if (unlisted > 0) problems.push(`${file}: ${unlisted} more problems like these.`);

  if (st.sessionId !== null) info.sessionId = st.sessionId;
  if (st.cwd !== null) info.projectPath = st.cwd;
  info.title = st.summary ?? st.firstPrompt ?? '';
  for (const r of records) r.sessionId = info.sessionId;
  return { info, records, problems, earliestAt: st.earliestAt };
}

function recordOf(line: ClaudeCodeUsageLine, turn: number, fileAgentId: string | null): UsageRecord {
  const u = line.message.usage;
  const split = u.cache_creation;
  const written =
    u.cache_creation_input_tokens ??
    (split?.ephemeral_5m_input_tokens ?? 0) + (split?.ephemeral_1h_input_tokens ?? 0);
  // Without a split every write is a 5 min one, as the API's own accounting has it.
  const cacheWrite1h = Math.min(written, split?.ephemeral_1h_input_tokens ?? 0);
  const tokens: TokenCounts = {
    input: u.input_tokens,
    output: u.output_tokens,
    cacheWrite5m: written - cacheWrite1h,
    cacheWrite1h,
    cacheRead: u.cache_read_input_tokens ?? 0,
    webSearches: u.server_tool_use?.web_search_requests ?? 0,
  };
  // Fast mode is billed at a multiple our table does not carry: unpriced rather than underpriced.
  const fast = u.speed === 'fast';
  const model = line.message.model ?? 'unknown';
  let costMicros: number | null = null;
  let priceVersion: string | null = null;
  if (line.costUSD !== undefined) {
    costMicros = Math.round(line.costUSD * 1e6);
    priceVersion = CLAUDE_CODE_COST_VERSION;
  } else if (line.message.model !== undefined && !fast) {
    const priced = priceResponse(model, tokens);
    if (priced.kind === 'priced') {
      costMicros = priced.micros;
      priceVersion = priced.version;
    }
  }
  const sidechain = line.isSidechain === true;
  return {
    source: 'claude-code',
    key:
      line.message.id !== undefined && line.requestId !== undefined
        ? `${line.message.id}:${line.requestId}`
        : null,
    at: Date.parse(line.timestamp),
    sessionId: line.sessionId ?? '',
    agentId: fileAgentId ?? (sidechain ? (line.agentId ?? 'sidechain') : null),
    model: fast ? `${model} (fast)` : model,
    tokens,
    costMicros,
    priceVersion,
    turn,
  };
}

/** A person's prompt (trimmed), or null for tool results, meta lines, sub-agent prompts and command echoes. */
function promptOf(o: Record<string, unknown>): string | null {
  const u = ClaudeCodeUserLine.safeParse(o);
  if (!u.success || u.data.isMeta === true || u.data.isSidechain === true) return null;
  const content = u.data.message.content;
  let text: string;
  if (typeof content === 'string') text = content;
  else {
    if (content.some((b) => b.type === 'tool_result')) return null;
    text = content
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text)
      .join(' ');
  }
  const title = cleanTitle(text);
  // Slash commands and their output are written as `<command-…>` / `<local-command-…>` markup.
  if (title === '' || title.startsWith('<')) return null;
  return title;
}

function cleanTitle(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_TITLE_CHARS ? `${one.slice(0, MAX_TITLE_CHARS - 1)}…` : one;
}

/** `…/projects/<slug>/…`: the project's folder name as Claude Code encodes it (ccusage's rule). */
function projectSlugOf(file: string): string {
  const parts = file.split(/[/\\]/);
  const i = parts.lastIndexOf('projects');
  return i >= 0 && i + 1 < parts.length - 1 ? (parts[i + 1] ?? 'unknown') : 'unknown';
}

/** `<session>/subagents/agent-<id>.jsonl`: a sub-agent's own transcript. */
function agentOfFile(file: string): TranscriptInfo['agent'] {
  if (path.basename(path.dirname(file)) !== 'subagents') return null;
  const name = path.basename(file, '.jsonl');
  const agentId = name.startsWith('agent-') ? name.slice('agent-'.length) : name;
  return { agentId, name, agentType: 'sub-agent' };
}
