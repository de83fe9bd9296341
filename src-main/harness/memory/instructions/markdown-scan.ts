/**
 * The two Markdown-aware passes Claude Code makes over an instruction file before using it: block
 * HTML comments are removed (authors leave notes to themselves there), and `@path` imports are found
 * in prose only, never inside fenced blocks or inline code spans (where `@decorator` and `npm i
 * @scope/pkg` are common and are not imports).
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Line {
  text: string;
  /** Inside a fenced block (the fence lines included). */
  code: boolean;
}

/** Splits text into lines and marks the ones in fenced code blocks. */
function classify(text: string): Line[] {
  const out: Line[] = [];
  let open: { char: string; length: number } | null = null;
  for (const line of text.split('\n')) {
    const fence = FENCE.exec(line);
    if (open) {
      out.push({ text: line, code: true });
      // A closing fence uses the same character, at least as many, and nothing after it.
      const closer = fence?.[1];
      if (closer && closer[0] === open.char && closer.length >= open.length && line.trim() === closer)
        open = null;
      continue;
    }
    const opener = fence?.[1];
    // A backtick fence's info string may not contain backticks (CommonMark), else it is inline code.
    if (opener && !(opener[0] === '`' && line.slice(line.indexOf(opener) + opener.length).includes('`'))) {
      open = { char: opener[0] ?? '`', length: opener.length };
      out.push({ text: line, code: true });
      continue;
    }
    out.push({ text: line, code: false });
  }
  return out;
}

/**
 * Removes block-level `<!-- ... -->` comments: those starting a line (up to 3 spaces in) outside
 * fenced blocks. Text after the closing `-->` on its line is kept. An unclosed comment is left as it
 * is, so a typo never hides the rest of the file.
 */
export function stripBlockComments(text: string): string {
  const lines = classify(text);
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (line.code || !/^ {0,3}<!--/.test(line.text)) {
      kept.push(line.text);
      continue;
    }
    let end = -1;
    for (let j = i; j < lines.length; j++) {
      const from = j === i ? line.text.indexOf('<!--') + 4 : 0;
      if ((lines[j] as Line).text.indexOf('-->', from) !== -1) {
        end = j;
        break;
      }
    }
    if (end === -1) {
      kept.push(line.text);
      continue;
    }
    const closing = (lines[end] as Line).text;
    const from = end === i ? line.text.indexOf('<!--') + 4 : 0;
    const rest = closing.slice(closing.indexOf('-->', from) + 3);
    if (rest.trim() !== '') kept.push(rest.trimStart());
    i = end;
  }
  return kept.join('\n');
}

/** The line with its inline code spans blanked out (a run of n backticks closes with exactly n). */
function withoutCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      out += line.charAt(i);
      i++;
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    const run = '`'.repeat(n);
    let close = -1;
    for (let j = line.indexOf(run, i + n); j !== -1; j = line.indexOf(run, j + 1)) {
      if (line[j + n] !== '`' && line[j - 1] !== '`') {
        close = j;
        break;
      }
    }
    if (close === -1) {
      // No matching closer: the backticks are literal text.
      out += run;
      i += n;
      continue;
    }
    out += ' '.repeat(close + n - i);
    i = close + n;
  }
  return out;
}

// An `@` at the start or after whitespace, then a path; `\ ` escapes a space inside the path.
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

/** Whether what follows `@` looks like a path (as Claude Code decides), not an @mention or `@@`. */
function looksLikePath(p: string): boolean {
  if (p.startsWith('./') || p.startsWith('../') || p.startsWith('~/')) return true;
  if (p.startsWith('/')) return p !== '/';
  return !p.startsWith('@') && !/^[#%^&*()]+/.test(p) && /^[a-zA-Z0-9._-]/.test(p);
}

/**
 * The `@path` imports of a file's text, in order, as written (`~/` and relative paths unresolved;
 * a `#heading` suffix and trailing sentence punctuation dropped; `\ ` unescaped). Fenced blocks and
 * code spans are skipped.
 */
export function findImports(text: string): string[] {
  const found: string[] = [];
  for (const line of classify(text)) {
    if (line.code) continue;
    for (const match of withoutCodeSpans(line.text).matchAll(IMPORT)) {
      const raw = (match[1] ?? '').replace(/\\ /g, ' ');
      const hash = raw.indexOf('#');
      // Sentence punctuation after a path ("see @docs/notes.md.") is not part of it.
      const p = (hash === -1 ? raw : raw.slice(0, hash)).replace(/[.,;:!?)]+$/, '');
      if (p !== '' && looksLikePath(p)) found.push(p);
    }
  }
  return found;
}
