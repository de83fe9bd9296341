import type { ElementContent, Root } from 'hast';
import { common, createLowlight } from 'lowlight';

/**
 * Syntax highlighting for code shown line by line (diffs): highlight.js through lowlight, the same
 * grammars rehype-highlight uses for replies, so both read alike and share highlight.css.
 * A whole side of a diff is highlighted at once, so a string or comment spanning lines keeps its
 * colour, and the result is cut back into lines.
 */
const lowlight = createLowlight(common);

/** One run of text in a highlighted line; `className` is the hljs token class, if any. */
export interface Token {
  text: string;
  className?: string;
}

/** Extensions and file names highlight.js knows under another name (most it knows as aliases). */
const EXTRA: Record<string, string> = {
  cts: 'typescript',
  mts: 'typescript',
  htm: 'xml',
  vue: 'xml',
  svelte: 'xml',
  lock: 'plaintext',
  gitignore: 'bash',
  env: 'bash',
  makefile: 'makefile',
  gnumakefile: 'makefile',
};

/** The highlight.js language for a file, from its name; null when none fits (shown plain). */
export function languageForPath(filePath: string): string | null {
  const name = (filePath.split(/[\\/]/).at(-1) ?? '').toLowerCase();
  const dot = name.lastIndexOf('.');
  const key = dot >= 0 ? name.slice(dot + 1) : name;
  const lang = EXTRA[key] ?? key;
  return lang !== '' && lowlight.registered(lang) ? lang : null;
}

/** Flattens highlight.js's nested spans into lines of tokens; the innermost class wins. */
function toLines(root: Root): Token[][] {
  const lines: Token[][] = [[]];
  const walk = (nodes: readonly ElementContent[], className: string | undefined) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        node.value.split('\n').forEach((part, i) => {
          if (i > 0) lines.push([]);
          if (part !== '') lines.at(-1)?.push(className ? { text: part, className } : { text: part });
        });
      } else if (node.type === 'element') {
        const own = node.properties['className'];
        walk(node.children, Array.isArray(own) ? own.join(' ') : className);
      }
    }
  };
  walk(root.children as ElementContent[], undefined);
  return lines;
}

/**
 * `lines` highlighted as one piece of code in `language` (null: plain); always one token list per
 * input line. A grammar that throws leaves the code plain rather than failing the view.
 */
export function highlightLines(lines: readonly string[], language: string | null): Token[][] {
  const plain = () => lines.map((text) => (text === '' ? [] : [{ text }]));
  if (language === null || lines.length === 0) return plain();
  try {
    const out = toLines(lowlight.highlight(language, lines.join('\n')));
    return out.length === lines.length ? out : plain();
  } catch {
    return plain();
  }
}
