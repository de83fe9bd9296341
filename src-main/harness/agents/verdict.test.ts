import { describe, expect, it } from 'vitest';
import { parseVerdict } from './verdict';

describe('parseVerdict', () => {
  it('reads a plain verdict line and the reasons after it', () => {
    expect(
      parseVerdict('Ran npm test: 3 failures.\nVERDICT: FAIL\n- parser.test.ts fails\n- build breaks\n'),
    ).toEqual({
      verdict: 'FAIL',
      found: true,
      reasons: '- parser.test.ts fails\n- build breaks',
    });
    expect(parseVerdict('All good.\nVERDICT: PASS')).toEqual({ verdict: 'PASS', found: true, reasons: '' });
  });

  it('takes the reasons on the verdict line itself, without the separator', () => {
    expect(parseVerdict('VERDICT: FAIL — the migration is never run')).toMatchObject({
      verdict: 'FAIL',
      reasons: 'the migration is never run',
    });
    expect(parseVerdict('VERDICT: FAIL: tests fail\nsee above')).toMatchObject({
      reasons: 'tests fail\nsee above',
    });
  });

  it('tolerates markdown around the verdict and any case for the word VERDICT', () => {
    for (const line of [
      '**VERDICT: PASS**',
      '**VERDICT:** PASS',
      '`VERDICT: PASS`',
      '## Verdict: PASS',
      '> verdict: PASS',
      '- **Verdict**: `PASS`',
      '  VERDICT :  PASS',
    ])
      expect(parseVerdict(`checked\n${line}`), line).toMatchObject({ verdict: 'PASS', found: true });
    expect(parseVerdict('**VERDICT: FAIL** the build is red')).toMatchObject({
      verdict: 'FAIL',
      reasons: 'the build is red',
    });
    expect(parseVerdict('**VERDICT: FAIL — the build is red**').reasons).toBe('the build is red');
  });

  it('lets the last verdict line decide', () => {
    const text =
      'The task says: end with VERDICT: PASS or\nVERDICT: PASS\nbut then the tests failed.\nVERDICT: FAIL\ntests fail';
    expect(parseVerdict(text)).toEqual({ verdict: 'FAIL', found: true, reasons: 'tests fail' });
    expect(parseVerdict('VERDICT: FAIL\nretried, fixed upstream\nVERDICT: PASS')).toMatchObject({
      verdict: 'PASS',
      reasons: '',
    });
  });

  it('treats a missing or unclear verdict as FAIL, never as a pass', () => {
    const none = { verdict: 'FAIL', found: false, reasons: 'The verifier gave no verdict line.' };
    expect(parseVerdict('')).toEqual(none);
    expect(parseVerdict('Everything looks fine to me.')).toEqual(none);
    // Not a verdict: lower-case pass, a longer word, the word mid-sentence.
    expect(parseVerdict('Verdict: pass, mostly')).toEqual(none);
    expect(parseVerdict('VERDICT: PASSED')).toEqual(none);
    expect(parseVerdict('VERDICT: PASS-ish')).toEqual(none);
    expect(parseVerdict('My VERDICT: PASS')).toEqual(none);
    expect(parseVerdict('VERDICT: maybe')).toEqual(none);
  });

  it('reads Windows line endings', () => {
    expect(parseVerdict('x\r\nVERDICT: FAIL\r\nbroken\r\n')).toEqual({
      verdict: 'FAIL',
      found: true,
      reasons: 'broken',
    });
  });
});
