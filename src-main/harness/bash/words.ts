import type { Node } from 'web-tree-sitter';

/** A shell word's value when it is known before running (quotes removed, escapes applied); null when dynamic. */
export interface WordValue {
  value: string | null;
  /** Unquoted `*`, `?` or `[` : the shell may expand it to file names. */
  glob: boolean;
}

function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/**
 * Evaluates a word node statically: plain words, '…', "…" without expansions, numbers and their
 * concatenations. Anything the shell would compute (expansions, substitutions, $'…', $"…", brace
 * expansion) makes the word dynamic.
 */
export function wordValue(node: Node): WordValue {
  switch (node.type) {
    case 'word':
      return { value: unescapeWord(node.text), glob: /(^|[^\\])[*?[]/.test(node.text) };
    case 'number':
      return { value: node.text, glob: false };
    case 'raw_string':
      return { value: node.text.slice(1, -1), glob: false };
    case 'string': {
      for (const child of node.namedChildren) {
        if (child.type !== 'string_content') return { value: null, glob: false };
      }
      // The content between the quotes, escapes applied (string_content may omit some characters).
      return { value: unescapeDoubleQuoted(node.text.slice(1, -1)), glob: false };
    }
    case 'concatenation': {
      let value = '';
      let glob = false;
      for (const child of node.namedChildren) {
        const part = wordValue(child);
        if (part.value === null) return { value: null, glob: false };
        value += part.value;
        glob ||= part.glob;
      }
      return { value, glob };
    }
    default:
      return { value: null, glob: false };
  }
}
