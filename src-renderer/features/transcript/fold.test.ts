import { describe, expect, it } from 'vitest';
import type { MessageItem, NoticeItem, ToolResultBlock, TranscriptItem } from '@shared/domain/messages';
import { collapseRetries, foldBlocks, foldSummary, foldTranscript, turnFailure } from './fold';

const at = '2026-01-01T00:00:00Z';
let n = 0;
const use = (name: string, input: Record<string, unknown> = {}) => ({
  type: 'tool_use' as const,
  id: `t${++n}`,
  name,
  input,
});
const assistant = (...content: MessageItem['content']): MessageItem => ({
  kind: 'message',
  id: `m${++n}`,
  role: 'assistant',
  content,
  createdAt: at,
  status: 'complete',
});
const toolResults = (): MessageItem => ({
  kind: 'message',
  id: `r${++n}`,
  role: 'user',
  content: [],
  createdAt: at,
  status: 'complete',
  origin: 'tool_results',
});
const ok = (id: string, category?: string, isError = false, readOnly = true): ToolResultBlock =>
  ({
    type: 'tool_result',
    tool_use_id: id,
    content: 'x',
    is_error: isError,
    meta: {
      durationMs: 1,
      ...(category ? { display: { kind: 'bash', exitCode: 0, timedOut: false, category, readOnly } } : {}),
    },
  }) as ToolResultBlock;

describe('foldSummary', () => {
  it('counts by kind in order of first appearance, singular and plural', () => {
    expect(foldSummary(['read', 'read', 'search', 'read', 'read', 'search'])).toBe(
      'Read 4 files, searched 2 patterns',
    );
    expect(foldSummary(['list', 'read'])).toBe('Listed 1 directory, read 1 file');
  });
});

describe('foldTranscript', () => {
  it('folds consecutive messages that only read or searched into one unit, across their tool results', () => {
    const a = use('Read', { file_path: 'a.ts' });
    const b = use('Grep', { pattern: 'x' });
    const c = use('Bash', { command: 'cat b.ts' });
    const items: TranscriptItem[] = [assistant(a), toolResults(), assistant(b, c), toolResults()];
    const results = { [a.id]: ok(a.id), [b.id]: ok(b.id), [c.id]: ok(c.id, 'read') };
    const units = foldTranscript(items, results);
    // The tool results render nothing; inside a run they go with it.
    expect(units.map((u) => u.kind)).toEqual(['fold']);
    expect(units[0]).toMatchObject({ kind: 'fold', summary: 'Read 2 files, searched 1 pattern' });
  });

  it('does not fold a write, a "search" that writes, a failed call, one still running, text, or a lone quiet call', () => {
    const read = use('Read');
    const write = use('Bash', { command: 'rm x' });
    const sneaky = use('Bash', { command: 'find . -delete' });
    const failed = use('Read');
    const running = use('Grep');
    const lone = use('Glob');
    const results = {
      [read.id]: ok(read.id),
      [write.id]: ok(write.id, 'write'),
      // Classified as a search, but the analysis did not find it read-only.
      [sneaky.id]: ok(sneaky.id, 'search', false, false),
      [failed.id]: ok(failed.id, undefined, true),
      [lone.id]: ok(lone.id),
    };
    const items: TranscriptItem[] = [
      assistant(read),
      assistant(sneaky),
      assistant(write),
      assistant(failed),
      assistant(running),
      assistant({ type: 'text', text: 'Now I know.' }),
      assistant(lone),
    ];
    expect(foldTranscript(items, results).every((u) => u.kind === 'item')).toBe(true);
  });
});

describe('foldBlocks', () => {
  it('folds a run of quiet calls inside one message, keeping the text around it', () => {
    const a = use('Read');
    const b = use('Read');
    const c = use('Bash', { command: 'ls' });
    const w = use('Write');
    const results = { [a.id]: ok(a.id), [b.id]: ok(b.id), [c.id]: ok(c.id, 'list'), [w.id]: ok(w.id) };
    const units = foldBlocks([{ type: 'text', text: 'Looking' }, a, b, c, w], results);
    expect(units.map((u) => u.kind)).toEqual(['block', 'fold', 'block']);
    expect(units[1]).toMatchObject({ summary: 'Read 2 files, listed 1 directory' });
    expect(units[2]).toMatchObject({ kind: 'block', index: 4 });
  });
});

const note = (code: string, text: string, level: NoticeItem['level'] = 'info'): NoticeItem => ({
  kind: 'notice',
  id: `n${++n}`,
  level,
  text,
  code,
  createdAt: at,
});
const person = (text: string): MessageItem => ({
  kind: 'message',
  id: `u${++n}`,
  role: 'user',
  origin: 'user',
  content: [{ type: 'text', text }],
  createdAt: at,
  status: 'complete',
});

describe('collapseRetries', () => {
  it("folds a turn's retry notices into one line: the last one's words under the first one's id", () => {
    const first = note('retry', 'Overloaded; retrying in 0.5 s (attempt 1 of 10).');
    const second = note('retry', 'Overloaded; retrying in 1.0 s (attempt 2 of 10).');
    const third = note('retry', 'Connection dropped; retrying in 2.0 s (attempt 3 of 10).');
    const reply = assistant({ type: 'text', text: 'done' });
    const later = note('retry', 'Overloaded; retrying in 0.5 s (attempt 1 of 10).');
    const out = collapseRetries([person('hi'), first, second, third, reply, later]);
    expect(out).toHaveLength(4);
    expect(out[1]).toMatchObject({ id: first.id, text: third.text, code: 'retry' });
    // A later turn's retries are a line of their own.
    expect(out[3]).toBe(later);
    // Through the transcript fold too.
    expect(foldTranscript([person('hi'), first, second], undefined)).toHaveLength(2);
  });

  it('leaves a transcript without retries as it is', () => {
    const items = [person('hi'), assistant({ type: 'text', text: 'yo' })];
    expect(collapseRetries(items)).toBe(items);
  });
});

describe('turnFailure', () => {
  const error = note('overloaded_error', 'Anthropic is overloaded (529).', 'error');
  const idle = { working: false, canRetry: true };
  it('offers a retry when the last thing shown is an API error, not while working', () => {
    const items = [person('hi'), note('retry', 'Overloaded; retrying…'), error];
    expect(turnFailure(items, idle)).toEqual({ kind: 'error', text: error.text, code: 'overloaded_error' });
    expect(turnFailure(items, { working: true, canRetry: false })).toBeNull();
  });

  it('offers a retry for a reply the app closed in, past the hidden closing results', () => {
    const cut: MessageItem = { ...assistant({ type: 'text', text: 'half' }), status: 'interrupted' };
    const closing: MessageItem = { ...toolResults(), origin: 'interrupt' };
    const exit = note(
      'interrupted_by_exit',
      'Stopped — the app closed before the reply finished.',
      'warning',
    );
    expect(turnFailure([person('hi'), cut, closing, exit], idle)).toMatchObject({ kind: 'exit' });
  });

  it('offers nothing after an error when the main process has nothing to retry', () => {
    // "The reply hit the output token limit 4 times": the last message in the context is the model's.
    const limit = note(
      'max_output_tokens',
      'The reply hit the output token limit 4 times in a row; stopping.',
      'error',
    );
    const cut = assistant({ type: 'text', text: 'cut' });
    expect(turnFailure([person('hi'), cut, limit], { working: false, canRetry: false })).toBeNull();
    expect(turnFailure([person('hi'), cut, limit], idle)).toMatchObject({ kind: 'error' });
  });

  it('offers nothing after a finished reply, a person stopping it, or an error long ago', () => {
    const done = assistant({ type: 'text', text: 'ok' });
    expect(turnFailure([person('hi'), done], idle)).toBeNull();
    const stopped: MessageItem = { ...assistant({ type: 'text', text: 'ha' }), status: 'interrupted' };
    expect(turnFailure([person('hi'), stopped], idle)).toBeNull();
    expect(turnFailure([person('a'), error, person('b'), done], idle)).toBeNull();
    expect(turnFailure([], idle)).toBeNull();
  });
});
