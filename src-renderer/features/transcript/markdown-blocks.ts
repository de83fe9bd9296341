/**
 * Splits a reply into top-level Markdown blocks so a streaming reply re-parses only its last,
 * growing block: every earlier block keeps exactly the same text, and its rendering is memoised
 * on that text. Parsing the whole reply on every delta is what made ten streaming tabs drop frames.
 *
 * A split happens only where it cannot change how the text reads: at a blank line outside a code
 * fence, when the next line starts at the left margin. An indented line after a blank line belongs
 * to what came before (a list item's second paragraph, or a fence nested in a list item), so it
 * stays in the same block. The splitter never has to be exact about Markdown: joining two blocks
 * is always correct, splitting is the only risk, and it splits only at the safe places above.
 */

/** An opening or closing fence: any indentation (fences nest in list items), then ``` or ~~~. */
const FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

interface OpenFence {
  char: string;
  length: number;
  /** Columns of indentation before the opening marker. */
  indent: number;
}

/** Leading whitespace in columns, a tab reaching the next multiple of 4 (CommonMark). */
function indentOf(lead: string): number {
  let col = 0;
  for (const ch of lead) col = ch === '\t' ? col + 4 - (col % 4) : col + 1;
  return col;
}

function opens(line: string): OpenFence | null {
  const m = FENCE.exec(line);
  if (!m) return null;
  const marker = m[2] ?? '';
  // A backtick fence's info string cannot contain a backtick (CommonMark), so "```a```" is inline code.
  if (marker.startsWith('`') && (m[3] ?? '').includes('`')) return null;
  return { char: marker.charAt(0), length: marker.length, indent: indentOf(m[1] ?? '') };
}

/**
 * CommonMark lets a closing fence be indented at most 3 spaces past its container's margin, so a
 * ``` indented 4 or more inside a top-level fence is code, not its end. The splitter does not
 * track containers: a fence opened at 4+ columns sits in a list item whose margin is at most that
 * far in, so up to the opener's own indentation is always a real close. Taking a real close for
 * code only joins blocks, which is always safe; the reverse would split a fence apart.
 */
function closes(line: string, fence: OpenFence): boolean {
  const m = FENCE.exec(line);
  if (!m) return false;
  const marker = m[2] ?? '';
  if (indentOf(m[1] ?? '') > Math.max(3, fence.indent)) return false;
  return marker.charAt(0) === fence.char && marker.length >= fence.length && (m[3] ?? '').trim() === '';
}

const isBlank = (line: string) => line.trim() === '';

/** A list item's first line at the margin: a bullet or a number, then a space or the line's end. */
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * What a split cannot get right, as a whole parse would: a reference definition or footnote (read
 * from anywhere in the reply), and an HTML block of CommonMark's kinds 1 to 5 (`<pre>`, `<script>`,
 * `<style>`, `<textarea>`, comments, `<?`, `<!X`, CDATA), which runs on across blank lines.
 */
const SPANS_BLOCKS =
  /^ {0,3}(?:\[[^\]\n]+\]:|<(?:script|pre|style|textarea|!--|\?|![A-Za-z]|!\[CDATA\[))|\[\^/im;

/**
 * Whether `splitBlocks(text)` rendered block by block reads exactly as `text` parsed whole: then a
 * finished reply keeps its blocks (and their memoised renders) and is never parsed whole again.
 */
export function splitsExactly(text: string): boolean {
  return !SPANS_BLOCKS.test(text);
}

/**
 * The reply's top-level blocks, in order; joined with blank lines they read as the whole reply.
 * Linear in the text's length. Blank lines between blocks are dropped; a block never starts or
 * ends with one (an unclosed fence keeps its inner blank lines).
 */
export function splitBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: OpenFence | null = null;
  let blanks = 0;
  // The current block has a list item at the margin: a later item after blank lines belongs to the
  // same (loose) list, which one parse draws as one list with a paragraph in each item.
  let inList = false;

  const flush = () => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
    inList = false;
  };

  for (const line of lines) {
    if (fence) {
      current.push(line);
      if (closes(line, fence)) fence = null;
      continue;
    }
    if (isBlank(line)) {
      if (current.length > 0) blanks++;
      continue;
    }
    if (blanks > 0) {
      // Indented after a blank line: a continuation of what came before, never a new block; so is
      // the next item of a list.
      const continues = /^\s/.test(line) || (inList && LIST_ITEM.test(line));
      if (continues) for (; blanks > 0; blanks--) current.push('');
      else flush();
      blanks = 0;
    }
    current.push(line);
    if (LIST_ITEM.test(line)) inList = true;
    fence = opens(line);
  }
  flush();
  return blocks;
}
