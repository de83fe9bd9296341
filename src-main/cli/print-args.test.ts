import { describe, expect, it } from 'vitest';
import { UsageError } from './args';
import { parsePrintArgs } from './print-args';

describe('carapace -p arguments', () => {
  it('reads claude -p flags in either spelling', () => {
    const o = parsePrintArgs([
      '-p',
      'fix it',
      '--output-format',
      'json',
      '--model=claude-opus-4-5',
      '--max-turns',
      '3',
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'Read,Grep',
      '--allowedTools',
      'Bash',
      '--disallowedTools=Write',
      '--append-system-prompt',
      'Be brief.',
      '--verbose',
      '--fallback-model',
      'claude-haiku-4-5',
    ]);
    expect(o).toMatchObject({
      prompt: 'fix it',
      outputFormat: 'json',
      model: 'claude-opus-4-5',
      maxTurns: 3,
      permissionMode: 'acceptEdits',
      allowedTools: ['Read', 'Grep', 'Bash'],
      disallowedTools: ['Write'],
      appendSystemPrompt: 'Be brief.',
      verbose: true,
      fallbackModel: 'claude-haiku-4-5',
    });
  });

  it('takes --resume, --continue, and a prompt from stdin when none is given', () => {
    expect(parsePrintArgs(['-p', '--resume', 'abc', 'go on'])).toMatchObject({
      resume: 'abc',
      prompt: 'go on',
    });
    expect(parsePrintArgs(['-p', '-c'])).toMatchObject({ continue: true, prompt: null });
  });

  it('refuses bad values and unknown flags with a clear message', () => {
    expect(() => parsePrintArgs(['-p', 'x', '--output-format', 'xml'])).toThrow(
      /must be text, json or stream-json/,
    );
    expect(() => parsePrintArgs(['-p', 'x', '--permission-mode', 'yolo'])).toThrow(
      /--permission-mode must be one of/,
    );
    expect(() => parsePrintArgs(['-p', 'x', '--max-turns', '0'])).toThrow(UsageError);
    expect(() => parsePrintArgs(['-p', 'x', '--frobnicate'])).toThrow(/Unknown option "--frobnicate"/);
    expect(() => parsePrintArgs(['-p', 'a', 'b'])).toThrow(/one prompt/);
    expect(() => parsePrintArgs(['-p', 'x', '--resume', 'id', '--continue'])).toThrow(/not both/);
  });

  it('takes --coordinator for a coordinator session', () => {
    expect(parsePrintArgs(['-p', 'split it', '--coordinator'])).toMatchObject({
      prompt: 'split it',
      coordinator: true,
    });
    expect(parsePrintArgs(['-p', 'alone']).coordinator).toBe(false);
  });
});
