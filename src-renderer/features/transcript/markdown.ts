/**
 * A small Markdown reader for model replies: fenced code, headings, lists, quotes and paragraphs,
 * with inline code, bold, italics and links. It produces data, never HTML, so nothing a model
 * writes can inject markup. Unclosed fences (mid-stream) render as code until they close.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'heading'; level: number; inlines: Inline[] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'quote'; inlines: Inline[] };

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\((https?:\/\/[^)\s]+)\))/;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  while (rest.length > 0) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push({ kind: 'text', text: rest });
      break;
    }
    if (m.index > 0) out.push({ kind: 'text', text: rest.slice(0, m.index) });
    const [whole] = m;
    if (m[1]) out.push({ kind: 'code', text: whole.slice(1, -1) });
    else if (m[2]) out.push({ kind: 'strong', children: parseInline(whole.slice(2, -2)) });
    else if (m[3]) out.push({ kind: 'em', children: parseInline(whole.slice(1, -1)) });
    else if (m[4] && m[5]) {
      const label = whole.slice(1, whole.indexOf(']('));
      out.push({ kind: 'link', href: m[5], children: parseInline(label) });
    }
    rest = rest.slice(m.index + whole.length);
  }
  return out;
}

const LIST_ITEM = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) blocks.push({ kind: 'paragraph', inlines: parseInline(para.join('\n')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = /^\s*(```|~~~)\s*([\w+-]*)\s*$/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !(lines[j] ?? '').trim().startsWith(fence[1] ?? '```')) body.push(lines[j++] ?? '');
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      i = j;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, inlines: parseInline(heading[2] ?? '') });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      const ordered = item[2] !== undefined;
      const items: Inline[][] = [parseInline(item[3] ?? '')];
      while (i + 1 < lines.length) {
        const next = LIST_ITEM.exec(lines[i + 1] ?? '');
        if (!next || (next[2] !== undefined) !== ordered) break;
        items.push(parseInline(next[3] ?? ''));
        i++;
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    if (line.startsWith('>')) {
      flush();
      const quoted = [line.replace(/^>\s?/, '')];
      while (i + 1 < lines.length && (lines[i + 1] ?? '').startsWith('>')) quoted.push((lines[++i] ?? '').replace(/^>\s?/, ''));
      blocks.push({ kind: 'quote', inlines: parseInline(quoted.join('\n')) });
      continue;
    }
    if (line.trim() === '') flush();
    else para.push(line);
  }
  flush();
  return blocks;
}
