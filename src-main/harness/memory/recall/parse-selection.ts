import { MAX_RECALLED } from './selector-prompt';

/**
 * The file names a selector answer picks, kept only when they are in `offered` (exactly as listed),
 * without repeats, at most {@link MAX_RECALLED}. Anything else in the answer is ignored: a name that
 * was not offered (`../../.ssh/id_rsa`, a made-up file) never reaches the file system, and an answer
 * that is not the JSON asked for selects nothing.
 */
export function parseSelection(answer: string, offered: ReadonlySet<string>): string[] {
  const names = namesIn(answer);
  const picked: string[] = [];
  for (const name of names) {
    if (picked.length >= MAX_RECALLED) break;
    if (typeof name === 'string' && offered.has(name) && !picked.includes(name)) picked.push(name);
  }
  return picked;
}

function namesIn(answer: string): unknown[] {
  // Models sometimes wrap JSON in a code fence or a sentence: take the outermost object or array.
  const candidates = [answer.trim(), slice(answer, '{', '}'), slice(answer, '[', ']')];
  for (const c of candidates) {
    if (!c) continue;
    let data: unknown;
    try {
      data = JSON.parse(c);
    } catch {
      continue;
    }
    if (Array.isArray(data)) return data;
    if (data && typeof data === 'object') {
      const list = (data as Record<string, unknown>)['selected_memories'];
      if (Array.isArray(list)) return list;
    }
  }
  return [];
}

function slice(text: string, open: string, close: string): string | null {
  const from = text.indexOf(open);
  const to = text.lastIndexOf(close);
  return from >= 0 && to > from ? text.slice(from, to + 1) : null;
}
