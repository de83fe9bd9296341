export interface Verdict {
  verdict: 'PASS' | 'FAIL';
  /** What the verifier wrote after its verdict (that line's rest and every line below it). */
  reasons: string;
  /** False when the answer had no verdict line: then the verdict is FAIL. */
  found: boolean;
}

/** Markdown a model may wrap the verdict in: bold, italics, code. */
const MARKS = '[*_`]*';
/**
 * `VERDICT: PASS` or `VERDICT: FAIL`, optionally after a heading, quote or list marker and wrapped in
 * markdown (`**VERDICT: PASS**`, `**VERDICT:** FAIL`, `` `VERDICT: PASS` ``). The word VERDICT may be
 * in any case; PASS and FAIL are checked separately to be upper case and whole words.
 */
const VERDICT_LINE = new RegExp(
  `^\\s*(?:(?:#{1,6}|>|[-+*])\\s+)*${MARKS}\\s*verdict\\s*${MARKS}\\s*:\\s*${MARKS}\\s*(pass|fail)(?![\\w-])${MARKS}(.*)$`,
  'i',
);

/**
 * Reads the Verification agent's verdict: the LAST verdict line decides (the verifier may quote its
 * instructions or change its mind along the way). PASS and FAIL must be written in capitals, so a
 * sentence that happens to start "Verdict: pass…" is not taken for one. Anything that is not a clear
 * verdict counts as FAIL: a missing verdict must never read as a pass.
 */
export function parseVerdict(text: string): Verdict {
  const lines = text.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = VERDICT_LINE.exec(lines[i] ?? '');
    const word = m?.[1];
    if (word !== 'PASS' && word !== 'FAIL') continue;
    const rest = (m?.[2] ?? '')
      .replace(/^[\s:;,.\u2013\u2014-]+/, '')
      .replace(/[*`]+\s*$/, '')
      .trim();
    const reasons = [rest, ...lines.slice(i + 1)].join('\n').trim();
    return { verdict: word, reasons, found: true };
  }
  return { verdict: 'FAIL', found: false, reasons: 'The verifier gave no verdict line.' };
}
