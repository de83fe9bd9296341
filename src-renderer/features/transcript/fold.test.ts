import { describe, expect, it } from 'vitest';
import type { MessageItem, ToolResultBlock, TranscriptItem } from '@shared/domain/messages';
import { foldBlocks, foldSummary, foldTranscript } from './fold';

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
