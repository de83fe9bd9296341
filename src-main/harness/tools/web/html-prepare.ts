/** Elements whose content a reader never sees: dropped before conversion, where they cost the most. */
const INVISIBLE = /<(script|style|noscript|template|svg|iframe|head|object)\b|<!--/gi;

/**
 * HTML handed to turndown at most (after the invisible parts are gone). turndown is synchronous and
 * takes seconds per megabyte on the main process, which must stay responsive; the Markdown is cut at
 * 100,000 characters anyway, which this much markup rarely falls short of.
 */
export const MAX_HTML_CHARS = 512 * 1024;

/**
 * Drops scripts, styles, SVG, embedded documents, the head and comments in one linear pass (an
 * element never closed runs to the end, as a browser reads it; a regex with lazy matching would
 * rescan the rest of the page for every unclosed opener), then cuts what is left at MAX_HTML_CHARS
 * on a tag boundary. Returns whether it had to cut.
 */
export function prepareHtml(html: string): { html: string; cut: boolean } {
  const lower = html.toLowerCase();
  const kept: string[] = [];
  let from = 0;
  INVISIBLE.lastIndex = 0;
  for (let m = INVISIBLE.exec(html); m !== null; m = INVISIBLE.exec(html)) {
    if (m.index < from) continue;
    kept.push(html.slice(from, m.index));
    const closer = m[1] ? `</${m[1].toLowerCase()}` : '-->';
    const close = lower.indexOf(closer, m.index + m[0].length);
    if (close === -1) {
      from = html.length;
      break;
    }
    const end = m[1] ? lower.indexOf('>', close) : close + 2;
    from = end === -1 ? html.length : end + 1;
    INVISIBLE.lastIndex = from;
  }
  kept.push(html.slice(from));
  let out = kept.join('');
  if (out.length <= MAX_HTML_CHARS) return { html: out, cut: false };
  const lastTag = out.lastIndexOf('<', MAX_HTML_CHARS);
  out = out.slice(0, lastTag > MAX_HTML_CHARS / 2 ? lastTag : MAX_HTML_CHARS);
  return { html: out, cut: true };
}
