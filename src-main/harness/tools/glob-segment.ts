import picomatch from 'picomatch';

/**
 * One path segment of a glob (`*.test.*`, `[A-Z]*`, `{a,b}.ts`) as a matcher for one name, in time
 * linear in the name's length where picomatch's RegExp alone would be polynomial (`*a*a*a*b` against
 * a long name of `a`s backtracks for minutes).
 *
 * picomatch still decides what every piece means. A segment without braces is cut at its `*`s into
 * pieces that each match a fixed number of characters (literals, `?`, `[...]`, escapes); the first
 * piece must match at the start, the last at the end, and each middle piece is taken at its leftmost
 * place, which for `*`-separated fixed-length pieces is exact. The cut is checked against picomatch's
 * own parse (same number of stars); a segment with braces, or one the check disagrees on, is left to
 * picomatch's RegExp, within the limits glob-match sets.
 */

export const PICOMATCH_OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  noextglob: true,
  nonegate: true,
  posix: true,
  windows: false,
};

interface Piece {
  /** Characters it matches. */
  length: number;
  test: (text: string) => boolean;
}

/** Where a `[...]` starting at `open` ends (the index of its `]`), or -1 if it is a literal `[`. */
export function bracketEnd(segment: string, open: number): number {
  let i = open + 1;
  if (segment[i] === '!' || segment[i] === '^') i++;
  if (segment[i] === ']') i++; // a `]` first is literal
  for (; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\') i++;
    else if (c === '[' && segment[i + 1] === ':') {
      const close = segment.indexOf(':]', i + 2);
      if (close > 0) i = close + 1;
    } else if (c === ']') return i;
  }
  return -1;
}

/** The segment's text between its `*` runs, each with its length in characters, or null if it has braces. */
function cut(segment: string): { text: string; length: number }[] | null {
  const pieces = [{ text: '', length: 0 }];
  for (let i = 0; i < segment.length; i++) {
    const piece = pieces[pieces.length - 1] as { text: string; length: number };
    const c = segment[i] ?? '';
    if (c === '{' || c === '}') return null;
    if (c === '*') {
      while (segment[i + 1] === '*') i++;
      pieces.push({ text: '', length: 0 });
      continue;
    }
    let end = i;
    if (c === '\\' && i + 1 < segment.length) end = i + 1;
    else if (c === '[') end = Math.max(i, bracketEnd(segment, i));
    const token = segment.slice(i, end + 1);
    piece.text += token;
    // One character for a class or `?`; an escape stands for the character after it.
    piece.length += end > i && (c === '[' || c === '\\') ? (c === '[' ? 1 : token.length - 1) : token.length;
    i = end;
  }
  return pieces;
}

/** `*` runs as picomatch parses the segment: the check on {@link cut}. */
function picomatchStars(segment: string): number {
  const { tokens } = picomatch.parse(segment, PICOMATCH_OPTIONS) as unknown as {
    tokens: { type: string }[];
  };
  return tokens.filter((t, k) => t.type === 'star' && tokens[k - 1]?.type !== 'star').length;
}

function pieceMatcher(text: string, length: number): Piece {
  // A sentinel in front, so picomatch's rule that a name is never `.` or `..` does not apply to a
  // piece standing for a part of a name.
  const matches = picomatch(`_${text}`, PICOMATCH_OPTIONS);
  return { length, test: (part) => matches(`_${part}`) };
}

/** `*`-separated fixed-length pieces, leftmost first: linear in the name for each piece. */
function piecesMatch(pieces: readonly Piece[], name: string): boolean {
  const first = pieces[0] as Piece;
  const last = pieces[pieces.length - 1] as Piece;
  const fixed = pieces.reduce((sum, p) => sum + p.length, 0);
  if (name.length < fixed) return false;
  if (!first.test(name.slice(0, first.length))) return false;
  const end = name.length - last.length;
  if (!last.test(name.slice(end))) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    let found = -1;
    for (let i = at; i + piece.length <= end; i++)
      if (piece.test(name.slice(i, i + piece.length))) {
        found = i;
        break;
      }
    if (found < 0) return false;
    at = found + piece.length;
  }
  return at <= end;
}

/**
 * How a segment will be matched: by pieces (linear), or by picomatch's RegExp, with the `*` runs and
 * `{` groups that make that one backtrack.
 */
export function segmentPlan(
  segment: string,
): { regex: false } | { regex: true; stars: number; braces: number } {
  const pieces = cut(segment);
  if (pieces !== null && pieces.length - 1 === picomatchStars(segment)) return { regex: false };
  let stars = 0;
  let braces = 0;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\') i++;
    else if (c === '*') {
      stars++;
      while (segment[i + 1] === '*') i++;
    } else if (c === '{') braces++;
  }
  return { regex: true, stars, braces };
}

/** A matcher for one name; check {@link segmentPlan} against the limits first. */
export function compileSegment(segment: string): (name: string) => boolean {
  const pieces = cut(segment);
  if (pieces === null || pieces.length < 2 || pieces.length - 1 !== picomatchStars(segment))
    return picomatch(segment, PICOMATCH_OPTIONS); // braces, or no star (nothing to backtrack)
  const compiled = pieces.map((p) => pieceMatcher(p.text, p.length));
  return (name) => piecesMatch(compiled, name);
}
