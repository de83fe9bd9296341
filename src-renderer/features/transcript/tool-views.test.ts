import { describe, expect, it } from 'vitest';
import type { ToolDisplay } from '@shared/domain/messages';
import { bashOutcome, cardOpenByDefault, displaySummary } from './tool-views';

const bash = (exitCode: number | null, timedOut = false): Extract<ToolDisplay, { kind: 'bash' }> => ({
  kind: 'bash',
  exitCode,
  timedOut,
});

describe('bashOutcome', () => {
  it('never says "exit null": a background command is running, a killed one stopped', () => {
    expect(bashOutcome(bash(null), { command: 'npm run dev', run_in_background: true })).toBe(
      'running in background',
    );
    expect(bashOutcome(bash(null), { command: 'sleep 30' })).toBe('stopped');
    expect(bashOutcome(bash(null))).toBe('stopped');
    expect(displaySummary(bash(null), { command: 'x' })).not.toContain('null');
  });

  it('gives 129–143 as the exit code, not as a signal: only a null code means Carapace killed it', () => {
    // `git --bad-option` exits 129 by itself; it was not hung up on.
    expect(bashOutcome(bash(129))).toBe('exit 129');
    expect(bashOutcome(bash(143))).toBe('exit 143');
    expect(bashOutcome(bash(137))).toBe('exit 137');
    expect(displaySummary(bash(130), { command: 'x' })).toBe('exit 130');
    expect(bashOutcome(bash(null, true))).toBe('timed out');
  });

  it('gives plain exit codes and timeouts as before', () => {
    expect(bashOutcome(bash(0))).toBe('exit 0');
    expect(bashOutcome(bash(2))).toBe('exit 2');
    expect(bashOutcome(bash(null, true))).toBe('timed out');
  });
});

describe('cardOpenByDefault', () => {
  it('opens a running Bash card, folds it once done, keeps it open when it failed', () => {
    expect(cardOpenByDefault('Bash', 'running', undefined)).toBe(true);
    expect(cardOpenByDefault('Bash', 'done', bash(0))).toBe(false);
    expect(cardOpenByDefault('Bash', 'error', bash(1))).toBe(true);
    expect(cardOpenByDefault('Bash', 'pending', undefined)).toBe(false);
  });

  it('keeps other tools folded, except diffs and to-do lists', () => {
    expect(cardOpenByDefault('Read', 'running', undefined)).toBe(false);
    expect(cardOpenByDefault('Read', 'error', undefined)).toBe(false);
    const diff: ToolDisplay = { kind: 'diff', path: 'a', created: false, lines: [], added: 1, removed: 0 };
    expect(cardOpenByDefault('Edit', 'done', diff)).toBe(true);
  });
});
