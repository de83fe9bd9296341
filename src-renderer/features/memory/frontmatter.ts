import { isMap, parseDocument } from 'yaml';

/**
 * A memory file as the form edits it: YAML frontmatter (`name`, `description`, `type`) and a
 * Markdown body whose `**Why:**` and `**How to apply:**` lines the feedback and project types need.
 * The YAML is read and written with the `yaml` library (never by hand), and only the fields the form
 * owns are touched: other keys and the body stay as the person wrote them.
 */

export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** The two body lines the feedback and project types must carry, by their bold label. */
export const SECTIONS = { why: 'Why', howToApply: 'How to apply' } as const;
export type SectionKey = keyof typeof SECTIONS;

export interface MemoryFields {
  name: string;
  description: string;
  type: string;
  why: string;
  howToApply: string;
}

export type FieldErrors = Partial<Record<keyof MemoryFields | 'yaml', string>>;

export interface ReadMemory {
  /** False when the file has no `---` block at its top. */
  hasFrontmatter: boolean;
  fields: MemoryFields;
  errors: FieldErrors;
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

export function splitFrontmatter(text: string): { yaml: string | null; body: string } {
  const m = FRONTMATTER.exec(text);
  if (!m) return { yaml: null, body: text };
  return { yaml: m[1] ?? '', body: text.slice(m[0].length) };
}

export function isMemoryType(value: string): value is MemoryType {
  return (MEMORY_TYPES as readonly string[]).includes(value);
}

function sectionPattern(label: string): RegExp {
  return new RegExp(`^\\*\\*${label}:\\*\\*[ \\t]*(.*)$`, 'm');
}

function readSection(body: string, key: SectionKey): string | null {
  const m = sectionPattern(SECTIONS[key]).exec(body);
  return m ? (m[1] ?? '').trim() : null;
}

const asText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : value instanceof Date
        ? value.toISOString()
        : '';

/** Reads the form's fields from a file's text and says, per field, what is wrong with it. */
export function readMemory(text: string): ReadMemory {
  const { yaml, body } = splitFrontmatter(text);
  const errors: FieldErrors = {};
  let data: Record<string, unknown> = {};
  if (yaml === null) {
    errors.yaml =
      'The file has no frontmatter: it must start with a --- block holding name, description and type.';
  } else {
    const doc = parseDocument(yaml);
    if (doc.errors.length > 0) {
      errors.yaml = `The frontmatter is not valid YAML: ${doc.errors[0]?.message.split('\n')[0] ?? 'parse error'}`;
    } else {
      const value: unknown = doc.toJS();
      if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value)))
        errors.yaml = 'The frontmatter must be a list of keys (name, description, type).';
      else data = (value ?? {}) as Record<string, unknown>;
    }
  }
  const why = readSection(body, 'why');
  const howToApply = readSection(body, 'howToApply');
  const fields: MemoryFields = {
    name: asText(data['name']),
    description: asText(data['description']),
    type: asText(data['type']),
    why: why ?? '',
    howToApply: howToApply ?? '',
  };
  if (!errors.yaml) {
    if (fields.name.trim() === '') errors.name = 'A name is required.';
    if (fields.description.trim() === '')
      errors.description = 'A one-line description is required: recall chooses memories by it.';
    if (!isMemoryType(fields.type))
      errors.type =
        fields.type === ''
          ? 'Choose a type: user, feedback, project or reference.'
          : `“${fields.type}” is not a type: use user, feedback, project or reference.`;
  }
  if (fields.type === 'feedback' || fields.type === 'project') {
    if (fields.why.trim() === '')
      errors.why = `A ${fields.type} memory needs a **Why:** line: the reason behind it.`;
    if (fields.howToApply.trim() === '')
      errors.howToApply = `A ${fields.type} memory needs a **How to apply:** line: when and how it applies.`;
  }
  return { hasFrontmatter: yaml !== null, fields, errors };
}

/** The text with one frontmatter field set; other keys, comments and the body are kept. */
export function withField(text: string, key: 'name' | 'description' | 'type', value: string): string {
  const { yaml, body } = splitFrontmatter(text);
  const doc = parseDocument(yaml ?? '');
  // A frontmatter that is not a map (or not YAML at all) cannot be edited key by key: start afresh.
  const usable = doc.errors.length === 0 && (doc.contents === null || isMap(doc.contents));
  const target = usable ? doc : parseDocument('');
  target.set(key, value);
  const out = target.toString({ lineWidth: 0 }).replace(/\n$/, '');
  const rest = yaml === null ? text : body;
  return `---\n${out}\n---\n${rest}`;
}

/** The text with a `**Why:**` or `**How to apply:**` line set (added at the end when missing). */
export function withSection(text: string, key: SectionKey, value: string): string {
  const label = SECTIONS[key];
  const line = `**${label}:** ${value.replace(/\r?\n/g, ' ')}`.trimEnd();
  const pattern = sectionPattern(label);
  if (pattern.test(text)) return text.replace(pattern, () => line);
  const sep = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return `${text}${sep}${line}\n`;
}
