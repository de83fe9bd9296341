import { describe, expect, it } from 'vitest';
import { expandVars } from './expand';

describe('expandVars', () => {
  const env = { HOST: 'api.example.com', EMPTY: '', TOKEN: 't0k' };

  it('expands ${VAR} and ${VAR:-default}', () => {
    expect(expandVars('https://${HOST}/mcp', env)).toEqual({
      value: 'https://api.example.com/mcp',
      missing: [],
      withheld: [],
    });
    expect(expandVars('${PORT:-8080}', env).value).toBe('8080');
    expect(expandVars('${HOST:-other}', env).value).toBe('api.example.com');
    expect(expandVars('Bearer ${TOKEN} ${TOKEN}', env).value).toBe('Bearer t0k t0k');
  });

  it('takes the default for an empty value, as the shell does; an empty default is allowed', () => {
    expect(expandVars('${EMPTY:-fallback}', env).value).toBe('fallback');
    expect(expandVars('[${NOPE:-}]', env).value).toBe('[]');
  });

  it('leaves an unset variable without a default as written, and reports it', () => {
    expect(expandVars('Bearer ${API_KEY}', env)).toEqual({
      value: 'Bearer ${API_KEY}',
      missing: ['API_KEY'],
      withheld: [],
    });
    // Set but empty, no default: empty, not missing.
    expect(expandVars('a${EMPTY}b', env)).toEqual({ value: 'ab', missing: [], withheld: [] });
  });

  it('touches nothing that is not a ${NAME} reference', () => {
    for (const text of ['$HOST', '${1BAD}', '${}', '${HOST', 'plain', '${HO ST}'])
      expect(expandVars(text, env).value).toBe(text);
  });
});
