import { describe, expect, it } from 'vitest';
import { NoticeItem, TranscriptItem } from '@shared/domain/messages';
import type { HookRunRecord } from '../hooks/dispatch';
import { capOutput } from '../hooks/output';
import { hookOutputNote } from './hook-output-notes';

const record = (over: Partial<HookRunRecord>): HookRunRecord => ({
  event: 'PostToolUse',
  source: 'project',
  label: 'npm run lint',
  handlerType: 'command',
  toolName: 'Bash',
  durationMs: 12,
  outcome: 'ok',
  exitCode: 0,
  stdout: '',
  stderr: '',
  ...over,
});

describe('hookOutputNote', () => {
  it('keeps the one-line text and carries the run with its output', () => {
    const note = hookOutputNote(
      record({ outcome: 'block', exitCode: 2, stdout: 'out', stderr: 'no edits to dist/' }),
    );
    expect(note.code).toBe('hook');
    expect(note.text).toBe('PostToolUse hook (Bash): npm run lint — blocked: no edits to dist/, 12 ms');
    expect(note.hook).toEqual({
      event: 'PostToolUse',
      source: 'project',
      label: 'npm run lint',
      handlerType: 'command',
      toolName: 'Bash',
      outcome: 'block',
      exitCode: 2,
      durationMs: 12,
      stdout: 'out',
      stderr: 'no edits to dist/',
    });
    expect(NoticeItem.parse(note)).toEqual(note);
  });

  it('output the runner already cut stays as it is; longer output is cut at 10,000 characters with a note', () => {
    const already = capOutput('x'.repeat(25_000));
    expect(hookOutputNote(record({ stdout: already })).hook?.stdout).toBe(already);
    const raw = 'y'.repeat(30_000);
    const cut = hookOutputNote(record({ stderr: raw })).hook?.stderr ?? '';
    expect(cut.startsWith('y'.repeat(10_000) + '\n… [hook output cut: 20000 more characters')).toBe(true);
    expect(cut.length).toBeLessThan(10_200);
  });

  it('a note from a transcript written before hook output was recorded still loads, without it', () => {
    const old = {
      kind: 'notice',
      id: 'n1',
      level: 'info',
      text: 'Stop hook: true — ok, 3 ms',
      createdAt: '2026-11-01T00:00:00.000Z',
      code: 'hook',
    };
    const parsed = TranscriptItem.parse(old);
    expect(parsed).toEqual(old);
    expect(parsed.kind === 'notice' && parsed.hook).toBeUndefined();
  });
});
