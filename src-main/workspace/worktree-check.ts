import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SessionWorktree } from '@shared/domain/session';
import { repositoryRoot } from '../harness/memory/dir/paths';
import type { AnyTool } from '../harness/tools/tool';

/**
 * Whether a session's worktree is still the worktree it was made as, read from the disk alone (no
 * git to run, so it can be asked before every tool call). The folder can vanish (deleted from the
 * app, `git worktree remove` or `rm -rf` by hand), or come back as something else at the same path:
 * a link (to `/`, say) or a plain folder. Tools must never run there, so anything but the worktree
 * itself counts as gone:
 * - the path is a real folder, not a link, and its real path is the recorded one (worktree paths are
 *   stored real, so a link anywhere above it changes the real path too);
 * - its `.git` is a file git would accept as a linked worktree of the project's own repository (the
 *   main repository's `worktrees/<name>/gitdir` points back at it; see harness/memory/dir/paths.ts);
 * - the project's place in it (`prefix`) is a folder inside it.
 * Returns null when intact, else what is wrong, in words for the person.
 */
export function worktreeProblem(projectPath: string, wt: SessionWorktree): string | null {
  let stat;
  try {
    stat = lstatSync(wt.path);
  } catch {
    return `Its worktree was deleted (${wt.path} no longer exists).`;
  }
  if (stat.isSymbolicLink())
    return `Its worktree folder ${wt.path} was replaced by a link; nothing runs there.`;
  if (!stat.isDirectory()) return `Its worktree folder ${wt.path} was replaced by a file.`;
  const notOurs = `Its worktree was deleted: ${wt.path} is no longer a worktree of this repository.`;
  try {
    if (realpathSync(wt.path) !== path.resolve(wt.path)) return notOurs;
    if (!lstatSync(path.join(wt.path, '.git')).isFile()) return notOurs;
    if (repositoryRoot(wt.path) !== repositoryRoot(projectPath)) return notOurs;
    const work = realpathSync(path.join(wt.path, wt.prefix));
    const rel = path.relative(wt.path, work);
    if (rel.startsWith('..') || path.isAbsolute(rel) || !lstatSync(work).isDirectory()) return notOurs;
  } catch {
    return notOurs;
  }
  return null;
}

/**
 * The session's tools, each refusing to run while its worktree is gone: asked at every call, since
 * the folder can go (or be swapped for a link) in the middle of a turn. A refusal is the tool's
 * error result, which the model reads; nothing of the tool runs.
 */
export function guardTools(tools: readonly AnyTool[], problem: () => string | null): AnyTool[] {
  return tools.map((tool) => {
    const call: AnyTool['call'] = async function* (input, ctx) {
      const why = problem();
      if (why !== null)
        return {
          content: `${why} No tool can run in this session; the person can continue it in the main checkout.`,
          isError: true,
        };
      return yield* tool.call(input, ctx);
    };
    // Own properties copied as they are, getters included (as hooks/wire.ts wraps tools): later
    // wrappers copy own properties, so an object inheriting them from the tool would lose them.
    return Object.defineProperties(
      {},
      {
        ...Object.getOwnPropertyDescriptors(tool),
        call: { value: call, enumerable: true, writable: true, configurable: true },
      },
    ) as AnyTool;
  });
}
