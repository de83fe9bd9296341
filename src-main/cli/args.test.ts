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
});
