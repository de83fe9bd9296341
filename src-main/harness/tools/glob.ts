import path from 'node:path';
import { z } from 'zod';
import { compileGlob, GlobPatternError } from './glob-match';
import { checkedDestination, resolveToolPath } from './paths';
import description from './prompts/glob.md?raw';
import { findRipgrep, newestFirst, runRipgrep, walkFiles } from './ripgrep';
import { buildTool, type ToolOutput } from './tool';

const MAX_RESULTS = 100;

const inputSchema = z.strictObject({
  pattern: z.string().min(1).describe('The glob pattern, e.g. "**/*.ts"'),
  path: z.string().optional().describe('The folder to search in (default: the working directory)'),
});

export const GlobTool = buildTool({
  name: 'Glob',
  description,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // eslint-disable-next-line require-yield -- no progress to report
  async *call(input, ctx): AsyncGenerator<never, ToolOutput> {
    const root = checkedDestination(resolveToolPath(input.path ?? '.', ctx.cwd), ctx);
    let files: string[];
    const rg = findRipgrep(ctx.env);
    if (rg) {
      const result = await runRipgrep(
        rg,
        ['--files', '--glob', input.pattern, '--glob', '!.git', '--glob', '!node_modules'],
        root,
        ctx.abortSignal,
      );
      if (result.code === 2)
        return { content: `Glob failed: ${result.stderr.trim() || 'ripgrep error'}`, isError: true };
      files = result.stdout.split('\n').filter(Boolean);
    } else {
      let matches;
      try {
        matches = compileGlob(input.pattern);
      } catch (error) {
        if (error instanceof GlobPatternError) return { content: error.message, isError: true };
        throw error;
      }
      files = walkFiles(root, ctx.abortSignal).filter(matches);
    }
    const absolute = files.map((f) => path.resolve(root, f));
    const sorted = newestFirst(absolute);
    const truncated = sorted.length > MAX_RESULTS;
    const shown = sorted.slice(0, MAX_RESULTS);
    const text =
      shown.length === 0
        ? 'No files found'
        : shown.join('\n') +
          (truncated
            ? `\n(Results are truncated: ${sorted.length} files matched. Use a more specific path or pattern.)`
            : '');
    return { content: text, display: { kind: 'files', count: sorted.length, truncated } };
  },
});
