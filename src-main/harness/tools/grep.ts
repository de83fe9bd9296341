import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { compileGlob } from './glob-match';
import { checkedDestination, resolveToolPath } from './paths';
import description from './prompts/grep.md?raw';
import { findRipgrep, isRegularFile, newestFirst, runRipgrep, walkFiles } from './ripgrep';
import { buildTool, type ToolOutput } from './tool';

const inputSchema = z.strictObject({
  pattern: z.string().min(1).describe('The regular expression to search for'),
  path: z.string().optional().describe('File or folder to search (default: the working directory)'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts"'),
  type: z.string().optional().describe('Only files of this type, e.g. "js", "py"'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('What to return (default files_with_matches)'),
  '-i': z.boolean().optional().describe('Case-insensitive'),
  '-n': z.boolean().optional().describe('Line numbers in content mode (default true)'),
  '-A': z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Lines of context after each match (content mode)'),
  '-B': z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Lines of context before each match (content mode)'),
  '-C': z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Lines of context around each match (content mode)'),
  multiline: z.boolean().optional().describe('Let patterns span lines'),
  head_limit: z.number().int().positive().optional().describe('Keep only the first N lines of output'),
});
type GrepInput = z.infer<typeof inputSchema>;

function ripgrepArgs(input: GrepInput, mode: string): string[] {
  const args = [
    '--color',
    'never',
    '--no-heading',
    '--max-columns',
    '500',
    '--glob',
    '!.git',
    '--glob',
    '!node_modules',
  ];
  if (mode === 'files_with_matches') args.push('--files-with-matches');
  else if (mode === 'count') args.push('--count');
  else {
    if (input['-n'] !== false) args.push('--line-number');
    if (input['-C'] !== undefined) args.push('--context', String(input['-C']));
    if (input['-A'] !== undefined) args.push('--after-context', String(input['-A']));
    if (input['-B'] !== undefined) args.push('--before-context', String(input['-B']));
  }
  if (input['-i']) args.push('--ignore-case');
  if (input.multiline) args.push('--multiline', '--multiline-dotall');
  if (input.glob) args.push('--glob', input.glob);
  if (input.type) args.push('--type', input.type);
  args.push('--regexp', input.pattern, '--');
  return args;
}

/** The same search in JavaScript, for machines without ripgrep (JS regex syntax; no `type`). */
function searchInJs(input: GrepInput, mode: string, root: string, signal: AbortSignal): string[] {
  const isFile = statSync(root).isFile();
  const files = isFile ? [path.basename(root)] : walkFiles(root, signal);
  const base = isFile ? path.dirname(root) : root;
  const filter = input.glob ? compileGlob(input.glob) : null;
  const flags = `${input['-i'] ? 'i' : ''}${input.multiline ? 's' : ''}`;
  const re = new RegExp(input.pattern, flags);
  const out: string[] = [];
  for (const rel of files) {
    if (filter && !filter(rel)) continue;
    let text: string;
    try {
      const buf = readFileSync(path.join(base, rel));
      if (buf.subarray(0, 8192).includes(0)) continue;
      text = buf.toString('utf8');
    } catch {
      continue;
    }
    const lines = text.split('\n');
    const hits = lines.flatMap((line, i) => (re.test(line) ? [i] : []));
    if (hits.length === 0 && !(input.multiline && re.test(text))) continue;
    if (mode === 'files_with_matches') out.push(rel);
    else if (mode === 'count') out.push(`${rel}:${Math.max(hits.length, 1)}`);
    else
      for (const i of hits)
        out.push(input['-n'] === false ? `${rel}:${lines[i] ?? ''}` : `${rel}:${i + 1}:${lines[i] ?? ''}`);
  }
  return out;
}

export const GrepTool = buildTool({
  name: 'Grep',
  description,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // eslint-disable-next-line require-yield -- no progress to report
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const target = checkedDestination(resolveToolPath(input.path ?? '.', ctx.cwd), ctx);
    const mode = input.output_mode ?? 'files_with_matches';
    // Paths in the output are relative to this folder (the file's own, when searching one file).
    const isFile = isRegularFile(target);
    const base = isFile ? path.dirname(target) : target;
    let lines: string[];
    const rg = findRipgrep(ctx.env);
    if (rg) {
      const result = await runRipgrep(
        rg,
        [...ripgrepArgs(input, mode), isFile ? path.basename(target) : '.'],
        base,
        ctx.abortSignal,
      );
      if (result.code === 2)
        return { content: `Grep failed: ${result.stderr.trim() || 'ripgrep error'}`, isError: true };
      lines = result.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.replace(/^\.\//, ''));
    } else {
      try {
        lines = searchInJs(input, mode, target, ctx.abortSignal);
      } catch (error) {
        return { content: `Grep failed: ${(error as Error).message}`, isError: true };
      }
    }
    if (mode === 'files_with_matches') lines = newestFirst(lines.map((f) => path.resolve(base, f)));
    const total = lines.length;
    if (input.head_limit !== undefined) lines = lines.slice(0, input.head_limit);
    if (total === 0)
      return { content: 'No matches found', display: { kind: 'files', count: 0, truncated: false } };
    const header = mode === 'files_with_matches' ? `Found ${total} file${total === 1 ? '' : 's'}\n` : '';
    const cut =
      lines.length < total
        ? `\n(${total - lines.length} more lines not shown: head_limit ${input.head_limit ?? ''})`
        : '';
    return {
      content: header + lines.join('\n') + cut,
      display: { kind: 'files', count: total, truncated: lines.length < total },
    };
  },
});
