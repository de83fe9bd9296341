/**
 * A small Markdown reader for model replies: fenced code, headings, lists, quotes and paragraphs,
 * with inline code, bold, italics and links. It produces data, never HTML, so nothing a model
 * writes can inject markup. Unclosed fences (mid-stream) render as code until they close.
 * Each block keeps its source text, so a view can skip re-rendering blocks that did not change
 * while a reply streams (only the last one grows).
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block = { source: string } & (
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'heading'; level: number; inlines: Inline[] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'quote'; inlines: Inline[] }
);

const INLINE =
  /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\((https?:\/\/[^)\s]+)\))/g;

/** Inline spans in one pass over the text (a global regex, no re-slicing: linear in the length). */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const re = new RegExp(INLINE.source, 'g');
  let at = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m.index > at) out.push({ kind: 'text', text: text.slice(at, m.index) });
    const [whole] = m;
    if (m[1]) out.push({ kind: 'code', text: whole.slice(1, -1) });
    else if (m[2]) out.push({ kind: 'strong', children: parseInline(whole.slice(2, -2)) });
    else if (m[3]) out.push({ kind: 'em', children: parseInline(whole.slice(1, -1)) });
    else if (m[5])
      out.push({ kind: 'link', href: m[5], children: parseInline(whole.slice(1, whole.indexOf(']('))) });
    at = m.index + whole.length;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at) });
  return out;
}

const LIST_ITEM = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/;
const FENCE = /^\s*(```|~~~)\s*([\w+-]*)\s*$/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) {
      const text = para.join('\n');
      blocks.push({ kind: 'paragraph', inlines: parseInline(text), source: text });
    }
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !(lines[j] ?? '').trim().startsWith(marker)) body.push(lines[j++] ?? '');
      const text = body.join('\n');
      blocks.push({
        kind: 'code',
        lang: fence[2] ?? '',
        text,
        source: `${line}\n${text}\n${j < lines.length ? marker : ''}`,
      });
      i = j;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({
        kind: 'heading',
        level: heading[1]?.length ?? 1,
        inlines: parseInline(heading[2] ?? ''),
        source: line,
      });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      const ordered = item[2] !== undefined;
      const items: Inline[][] = [parseInline(item[3] ?? '')];
      const src = [line];
      while (i + 1 < lines.length) {
        const next = LIST_ITEM.exec(lines[i + 1] ?? '');
        if (!next || (next[2] !== undefined) !== ordered) break;
        items.push(parseInline(next[3] ?? ''));
        src.push(lines[++i] ?? '');
      }
      blocks.push({ kind: 'list', ordered, items, source: src.join('\n') });
      continue;
    }
    if (line.startsWith('>')) {
      flush();
      const quoted = [line];
      while (i + 1 < lines.length && (lines[i + 1] ?? '').startsWith('>')) quoted.push(lines[++i] ?? '');
      const text = quoted.map((l) => l.replace(/^>\s?/, '')).join('\n');
      blocks.push({ kind: 'quote', inlines: parseInline(text), source: quoted.join('\n') });
      continue;
    }
    if (line.trim() === '') flush();
    else para.push(line);
  }
  flush();
  return blocks;
}
