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

  it('reads short flags, grouped or not, and a prompt after -- even if it starts with a dash', () => {
    expect(parsePrintArgs(['-pc'])).toMatchObject({ continue: true, prompt: null });
    expect(parsePrintArgs(['-p', '-r', 'abc'])).toMatchObject({ resume: 'abc' });
    expect(parsePrintArgs(['-p', '--', '--not-a-flag'])).toMatchObject({ prompt: '--not-a-flag' });
    expect(parsePrintArgs(['-p', '-'])).toMatchObject({ prompt: '-' });
    expect(
      parsePrintArgs(['-p', 'x', '--allowed-tools', 'Read', '--allowedTools=Grep Bash']).allowedTools,
    ).toEqual(['Read', 'Grep', 'Bash']);
    expect(parsePrintArgs(['-p', 'x', '--token-budget', '5000']).tokenBudget).toBe(5000);
  });

  it('refuses missing values, values on switches and dash-leading values, naming the flag as typed', () => {
    expect(() => parsePrintArgs(['-p', 'x', '--model'])).toThrow('--model needs a value.');
    expect(() => parsePrintArgs(['-p', 'x', '-r'])).toThrow('-r needs a value.');
    expect(() => parsePrintArgs(['-p', 'x', '--verbose=yes'])).toThrow('--verbose takes no value.');
    expect(() => parsePrintArgs(['-p', 'x', '--max-turns', '-1'])).toThrow(
      '--max-turns needs a value (for one starting with "-", write --max-turns=-1).',
    );
    expect(() => parsePrintArgs(['-p', 'x', '--max-turns=-1'])).toThrow(
      '--max-turns must be a positive whole number, not "-1".',
    );
    expect(() => parsePrintArgs(['-p', 'x', '-z'])).toThrow('Unknown option "-z" for -p.');
  });
});

describe('--max-budget-usd', () => {
  const usd = (v: string) => parsePrintArgs(['-p', 'x', '--max-budget-usd', v]).maxBudgetUsd;

  it('takes plain decimal amounts above 0', () => {
    expect(usd('0.5')).toBe(0.5);
    expect(usd('12')).toBe(12);
    expect(usd('0.000001')).toBe(0.000001);
  });

  it('refuses any other number form, and amounts that would round to $0, with a usage error', () => {
    for (const bad of [
      '0x10',
      '0b11',
      '0o7',
      '1e-9',
      '1e3',
      ' 2 ',
      '+1',
      '.5',
      '5.',
      '1,5',
      '0',
      '0.0000001',
      '-1',
    ])
      expect(() => usd(bad), bad).toThrow(UsageError);
    expect(() => usd('0x10')).toThrow(
      /--max-budget-usd must be an amount in USD above 0, such as 0.50, not "0x10"/,
    );
  });
});
