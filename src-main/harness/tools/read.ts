import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { errnoCode } from '../../platform/errors';
import description from './prompts/read.md?raw';
import { hashContent } from './read-file-state';
import { checkedDestination, readFileChecked, resolveToolPath } from './paths';
import { buildTool, type ToolOutput, type ToolUseContext } from './tool';

const DEFAULT_LIMIT = 2000;
const MAX_LINE = 2000;
/** A whole-file read of more than this asks for offset/limit instead. */
const MAX_FULL_READ_BYTES = 256 * 1024;
/** Even with offset/limit, a file this large is not loaded into memory. */
const MAX_ANY_READ_BYTES = 64 * 1024 * 1024;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Read shapes its own output (offset/limit); past this it asks for a smaller range instead of being cut. */
const MAX_OUTPUT_CHARS = 120_000;

const IMAGE_TYPES = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
} as const;

const inputSchema = z.strictObject({
  file_path: z
    .string()
    .describe('The path of the file to read (absolute, or relative to the working directory)'),
  offset: z.number().int().positive().optional().describe('The line number to start reading from (1-based)'),
  limit: z.number().int().positive().optional().describe('The number of lines to read'),
});

function fail(message: string): ToolOutput {
  return { content: message, isError: true };
}

/** A NUL byte in the first 8 KiB: what git and grep take to mean "binary". */
function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

export function numberLines(lines: readonly string[], firstLine: number): string {
  return lines
    .map(
      (line, i) =>
        `${String(firstLine + i).padStart(6)}\t${line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}… [line cut at ${MAX_LINE} characters]` : line}`,
    )
    .join('\n');
}

export const ReadTool = buildTool({
  name: 'Read',
  description,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  maxResultChars: Infinity,
  // eslint-disable-next-line require-yield -- Read has no progress to report
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const output = await readFile(input, ctx);
    if (output.isError || !ctx.instructionsFor) return output;
    // As Claude Code does: a subfolder's CLAUDE.md and matching `paths` rules ride with the first
    // read there, so the model has them exactly when it starts working on those files.
    const attachment = await ctx.instructionsFor(resolveToolPath(input.file_path, ctx.cwd));
    if (!attachment) return output;
    const content =
      typeof output.content === 'string'
        ? `${output.content}\n\n${attachment}`
        : [...output.content, { type: 'text' as const, text: attachment }];
    return { ...output, content };
  },
});

/** The file's numbered lines (or the image), or an error the model can act on. */
async function readFile(input: z.infer<typeof inputSchema>, ctx: ToolUseContext): Promise<ToolOutput> {
  const file = resolveToolPath(input.file_path, ctx.cwd);
  const source = checkedDestination(file, ctx);
  let info;
  try {
    info = await stat(source);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return fail(`File does not exist: ${file}`);
    if (errnoCode(error) === 'EACCES') return fail(`Permission denied: ${file}`);
    throw error;
  }
  if (info.isDirectory()) return fail(`${file} is a directory, not a file. Use Glob or \`ls\` to list it.`);

  const ext = path.extname(file).toLowerCase();
  if (ext in IMAGE_TYPES) {
    if (info.size > MAX_IMAGE_BYTES)
      return fail(`${file} is ${info.size} bytes; images over ${MAX_IMAGE_BYTES} bytes are not read.`);
    const bytes = await readFileChecked(source);
    ctx.readFileState.set(file, { hash: hashContent(bytes), mtimeMs: info.mtimeMs });
    const mediaType = IMAGE_TYPES[ext as keyof typeof IMAGE_TYPES];
    return {
      content: [
        {
          type: 'image',
          source: { type: 'base64', media_type: mediaType, data: bytes.toString('base64') },
        },
      ],
      display: { kind: 'image', path: file, mediaType, bytes: info.size },
    };
  }
  if (info.size > MAX_ANY_READ_BYTES) {
    return fail(
      `${file} is ${info.size} bytes, too large to read; search it with Grep or look at parts with Bash (head, tail, sed -n).`,
    );
  }
  if (input.offset === undefined && input.limit === undefined && info.size > MAX_FULL_READ_BYTES) {
    return fail(
      `${file} is ${info.size} bytes, more than ${MAX_FULL_READ_BYTES} can be read at once. Read it in parts with offset and limit, or search it with Grep.`,
    );
  }
  // One read of the whole file: it also works for pipes and devices, which cannot seek.
  const bytes = await readFileChecked(source);
  if (looksBinary(bytes)) {
    return fail(
      `${file} looks like a binary file (it contains NUL bytes). Read shows text and images only; use Bash (e.g. \`xxd | head\`) to inspect it.`,
    );
  }
  const text = bytes.toString('utf8');
  ctx.readFileState.set(file, { hash: hashContent(text), mtimeMs: info.mtimeMs });
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  if (lines.length === 0) {
    return {
      content: '<system-reminder>The file exists but is empty.</system-reminder>',
      display: { kind: 'read', path: file, startLine: 0, endLine: 0, totalLines: 0 },
    };
  }
  const start = input.offset ?? 1;
  if (start > lines.length)
    return fail(`${file} has ${lines.length} lines; offset ${start} is past the end.`);
  const slice = lines.slice(start - 1, start - 1 + (input.limit ?? DEFAULT_LIMIT));
  const end = start + slice.length - 1;
  const numbered = numberLines(slice, start);
  if (numbered.length > MAX_OUTPUT_CHARS) {
    return fail(
      `Lines ${start}–${end} of ${file} are ${numbered.length} characters, more than ${MAX_OUTPUT_CHARS} at once. Read fewer lines (a smaller limit) or search with Grep.`,
    );
  }
  const more =
    end < lines.length
      ? `\n\n(Showing lines ${start}–${end} of ${lines.length}; read on with offset ${end + 1}.)`
      : '';
  return {
    content: numbered + more,
    display: { kind: 'read', path: file, startLine: start, endLine: end, totalLines: lines.length },
  };
}
