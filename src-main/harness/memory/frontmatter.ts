import { isMap, parseDocument, stringify } from 'yaml';

export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** Types whose body must say why the memory holds and how to apply it (a bare rule ages badly). */
export const TYPES_NEEDING_REASONS: readonly MemoryType[] = ['feedback', 'project'];

export interface MemoryFile {
  name: string;
  description: string;
  type: MemoryType;
  /** The Markdown after the frontmatter, as written (including the Why / How to apply lines). */
  body: string;
  /** The text of the `**Why:**` line, when the body has one. */
  why?: string;
  /** The text of the `**How to apply:**` line, when the body has one. */
  howToApply?: string;
}

/** What could be read of a file that is not a valid memory: every field as far as it was readable. */
export interface MemoryDraft {
  name: string;
  description: string;
  type: MemoryType | null;
  body: string;
  why?: string;
  howToApply?: string;
}

export type MemoryField = 'frontmatter' | 'name' | 'description' | 'type' | 'why' | 'howToApply';
export type MemoryErrorCode =
  'missing' | 'invalid-yaml' | 'not-a-mapping' | 'required' | 'not-a-string' | 'invalid-type';

export interface MemoryFieldError {
  field: MemoryField;
  code: MemoryErrorCode;
  message: string;
}

export type ParsedMemoryFile =
  | { ok: true; memory: MemoryFile; errors: [] }
  | { ok: false; memory: MemoryDraft; errors: MemoryFieldError[] };

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?^---[ \t]*(?:\r?\n|$)/m;
const WHY = /^\s*\*\*Why:\*\*[ \t]*(.*)$/m;
const HOW = /^\s*\*\*How to apply:\*\*[ \t]*(.*)$/m;

/**
 * Reads a memory file: YAML frontmatter (`name`, `description`, `type`) between `---` lines, then a
 * Markdown body. Every problem is reported against its field, so an editor can show each one inline;
 * nothing throws on bad input.
 */
export function parseMemoryFile(text: string): ParsedMemoryFile {
  const errors: MemoryFieldError[] = [];
  const draft: MemoryDraft = { name: '', description: '', type: null, body: text };
  const m = FRONTMATTER.exec(text);
  if (!m || m.index !== 0) {
    errors.push({
      field: 'frontmatter',
      code: 'missing',
      message: 'The file must start with a frontmatter block between two "---" lines.',
    });
    addReasons(draft);
    return { ok: false, memory: draft, errors };
  }
  draft.body = text.slice(m[0].length).replace(/^\r?\n/, '');
  addReasons(draft);
  const doc = parseDocument(m[1] ?? '');
  if (doc.errors.length > 0) {
    const first = doc.errors[0]?.message.split('\n')[0] ?? 'unreadable';
    errors.push({
      field: 'frontmatter',
      code: 'invalid-yaml',
      message: `The frontmatter is not valid YAML: ${first}`,
    });
    return { ok: false, memory: draft, errors };
  }
  if (!isMap(doc.contents)) {
    errors.push({
      field: 'frontmatter',
      code: 'not-a-mapping',
      message: 'The frontmatter must be a list of "key: value" lines.',
    });
    return { ok: false, memory: draft, errors };
  }
  const data = doc.toJS() as Record<string, unknown>;
  for (const field of ['name', 'description'] as const) {
    const v = data[field];
    if (v === undefined || v === null || v === '') {
      errors.push({ field, code: 'required', message: `"${field}" is required.` });
    } else if (typeof v !== 'string') {
      errors.push({ field, code: 'not-a-string', message: `"${field}" must be text.` });
    } else if (v.trim() === '') {
      errors.push({ field, code: 'required', message: `"${field}" is required.` });
    } else draft[field] = v;
  }
  const type = data['type'];
  if (type === undefined || type === null || type === '') {
    errors.push({
      field: 'type',
      code: 'required',
      message: `"type" is required: one of ${MEMORY_TYPES.join(', ')}.`,
    });
  } else if (typeof type === 'string' && (MEMORY_TYPES as readonly string[]).includes(type)) {
    draft.type = type as MemoryType;
  } else {
    errors.push({
      field: 'type',
      code: 'invalid-type',
      message: `"type" must be one of ${MEMORY_TYPES.join(', ')}, not ${JSON.stringify(type)}.`,
    });
  }
  if (draft.type && TYPES_NEEDING_REASONS.includes(draft.type)) {
    if (!draft.why) {
      errors.push({
        field: 'why',
        code: 'required',
        message: `A ${draft.type} memory needs a "**Why:**" line.`,
      });
    }
    if (!draft.howToApply) {
      errors.push({
        field: 'howToApply',
        code: 'required',
        message: `A ${draft.type} memory needs a "**How to apply:**" line.`,
      });
    }
  }
  if (errors.length > 0 || !draft.type) return { ok: false, memory: draft, errors };
  return { ok: true, memory: { ...draft, type: draft.type }, errors: [] };
}

function addReasons(draft: MemoryDraft): void {
  const why = WHY.exec(draft.body)?.[1]?.trim();
  const how = HOW.exec(draft.body)?.[1]?.trim();
  if (why) draft.why = why;
  if (how) draft.howToApply = how;
}

/**
 * Writes a memory file: the frontmatter through the YAML library (quoting a description with a colon
 * or a leading `#` correctly is its job, not ours), then the body. `why` / `howToApply` given but not
 * yet in the body are added as their lines; ones already there are replaced in place.
 */
export function formatMemoryFile(memory: MemoryFile | MemoryDraft): string {
  const front = stringify(
    { name: memory.name, description: memory.description, type: memory.type },
    { lineWidth: 0 },
  );
  let body = memory.body.replace(/^\r?\n+/, '');
  body = setLine(body, WHY, '**Why:**', memory.why);
  body = setLine(body, HOW, '**How to apply:**', memory.howToApply);
  if (body !== '' && !body.endsWith('\n')) body += '\n';
  return `---\n${front}---\n\n${body}`;
}

function setLine(body: string, re: RegExp, label: string, value: string | undefined): string {
  if (value === undefined) return body;
  const line = `${label} ${value.replace(/\r?\n/g, ' ').trim()}`;
  if (re.test(body)) return body.replace(re, line);
  return body === '' ? line : `${body.replace(/\n*$/, '')}\n\n${line}`;
}
