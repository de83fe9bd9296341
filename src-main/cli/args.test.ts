import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args';

describe('carapace arguments', () => {
  it('parses serve with its flags, in both spellings', () => {
    expect(parseArgs(['serve'])).toEqual({ kind: 'serve', port: null, host: '127.0.0.1', project: null });
    expect(parseArgs(['serve', '--port', '0', '--host=0.0.0.0', '--project', '/p'])).toEqual({
      kind: 'serve',
      port: 0,
      host: '0.0.0.0',
      project: '/p',
    });
  });

  it('defaults to the desktop app and knows help and version', () => {
    expect(parseArgs([])).toEqual({ kind: 'desktop' });
    expect(parseArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseArgs(['--version'])).toEqual({ kind: 'version' });
  });

  it('refuses unknown commands, unknown flags, bad ports and missing values', () => {
    expect(() => parseArgs(['frobnicate'])).toThrow(UsageError);
    expect(() => parseArgs(['serve', '--bogus'])).toThrow(/Unknown option "--bogus"/);
    expect(() => parseArgs(['serve', '--port', '70000'])).toThrow(/--port must be/);
    expect(() => parseArgs(['serve', '--port', 'abc'])).toThrow(/--port must be/);
    expect(() => parseArgs(['serve', '--project'])).toThrow(/needs a value/);
  });

  it('says what node:util parseArgs refused, in the same typed error', () => {
    const refused = (args: string[]) => {
      try {
        parseArgs(args);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refused(['serve', '--project', '--port', '3'])).toBe(
      '--project needs a value (for one starting with "-", write --project=--port).',
    );
    expect(refused(['serve', 'extra'])).toBe('Unexpected argument "extra" for serve.');
    expect(refused(['serve', '--port='])).toBe('--port must be 0–65535, not "".');
    expect(refused(['scripted-api', '--port', '1'])).toBe('scripted-api needs --scenario FILE.');
    expect(refused(['scripted-api', '--scenario'])).toBe('--scenario needs a value.');
    expect(refused(['scripted-api', '--nope'])).toBe('Unknown option "--nope" for scripted-api.');
    expect(parseArgs(['scripted-api', '--scenario=s.json', '--port', '9'])).toEqual({
      kind: 'scripted-api',
      scenario: 's.json',
      port: 9,
    });
  });
});
