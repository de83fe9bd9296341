import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseMemoryFile } from '../frontmatter';
import { MEMORY_INDEX_FILE, teamMemoryDir } from '../dir/paths';
import { validateMemoryPath } from '../dir/validate-memory-path';
import type { ConsolidationOutput } from './consolidate-prompt';

/** A plain memory file name: `x.md` or `team/x.md`, no dot files, no other folders. */
const MEMORY_NAME = /^(?:team\/)?[^/\\.][^/\\]*\.md$/;

export interface ConsolidationPlan {
  /** `shown`: the file's text as the model was shown it; null for a file that did not exist. */
  writes: { name: string; path: string; content: string; shown: string | null }[];
  removals: { name: string; path: string; shown: string }[];
  /** What was refused, in words (an unsafe name, a memory without its frontmatter). */
  problems: string[];
}

/**
 * Checks the model's answer before anything touches the disk. Every name is a plain memory file
 * name and passes validateMemoryPath; a memory must parse as one (frontmatter, type, Why / How to
 * apply); an existing file may be changed or removed only if it was shown to the model (`offered`,
 * name to the text shown, the index included when there was one): a file the model never read is
 * never overwritten from a guess.
 */
export function planConsolidation(
  output: ConsolidationOutput,
  memoryDir: string,
  offered: ReadonlyMap<string, string>,
  existing: ReadonlySet<string>,
): ConsolidationPlan {
  const plan: ConsolidationPlan = { writes: [], removals: [], problems: [] };
  const place = (name: string): string | null => {
    if (!MEMORY_NAME.test(name)) {
      plan.problems.push(`"${name}" is not a memory file name; left alone.`);
      return null;
    }
    const checked = validateMemoryPath(path.join(memoryDir, name), memoryDir);
    if (!checked.ok) {
      plan.problems.push(`"${name}" was refused: ${checked.message}`);
      return null;
    }
    return checked.path;
  };
  const seen = new Set<string>();
  for (const file of output.files) {
    if (seen.has(file.name)) {
      plan.problems.push(`"${file.name}" was given twice; the first was kept.`);
      continue;
    }
    seen.add(file.name);
    if (existing.has(file.name) && !offered.has(file.name) && file.name !== MEMORY_INDEX_FILE) {
      plan.problems.push(`"${file.name}" was not shown to the model; left alone.`);
      continue;
    }
    if (file.name !== MEMORY_INDEX_FILE) {
      const parsed = parseMemoryFile(file.content);
      if (!parsed.ok) {
        plan.problems.push(
          `"${file.name}" is not a valid memory (${parsed.errors.map((e) => e.message).join(' ')}); not written.`,
        );
        continue;
      }
    }
    const target = place(file.name);
    if (target)
      plan.writes.push({
        name: file.name,
        path: target,
        content: file.content,
        shown: offered.get(file.name) ?? null,
      });
  }
  for (const name of new Set(output.remove)) {
    const shown = offered.get(name);
    if (shown === undefined || name === MEMORY_INDEX_FILE) {
      plan.problems.push(`"${name}" is not a memory that was shown; not removed.`);
      continue;
    }
    if (seen.has(name)) continue; // rewritten, not removed
    const target = place(name);
    if (target) plan.removals.push({ name, path: target, shown });
  }
  return plan;
}

/**
 * Writes the plan. Each write is whole (temp file + rename); the version it replaces, and every
 * removed file, goes to the trash the memory browser restores from (see {@link trashSlot}), so a
 * consolidation that went wrong can be undone.
 *
 * The model took a while to answer: a file the person (or a session) changed, created or removed
 * since it was read for the model is left as it is now, and said so in `plan.problems`; writing the
 * model's version over it would lose an edit the model never saw.
 */
export async function applyPlan(
  plan: ConsolidationPlan,
  memoryDir: string,
  now: Date,
): Promise<{ written: string[]; removed: string[] }> {
  const written: string[] = [];
  const removed: string[] = [];
  for (const w of plan.writes) {
    const old = await readFile(w.path, 'utf8').catch(() => null);
    if (old !== w.shown) {
      plan.problems.push(changedNote(w.name));
      continue;
    }
    if (old === w.content) continue;
    if (old !== null) await copyFile(w.path, await trashSlot(memoryDir, w.name, now));
    await mkdir(path.dirname(w.path), { recursive: true });
    const tmp = path.join(
      path.dirname(w.path),
      `.${path.basename(w.path)}.${randomBytes(4).toString('hex')}.tmp`,
    );
    await writeFile(tmp, w.content);
    await rename(tmp, w.path);
    written.push(w.name);
  }
  for (const r of plan.removals) {
    const current = await readFile(r.path, 'utf8').catch(() => null);
    if (current !== r.shown) {
      plan.problems.push(changedNote(r.name));
      continue;
    }
    try {
      await rename(r.path, await trashSlot(memoryDir, r.name, now));
      removed.push(r.name);
    } catch (error) {
      plan.problems.push(`"${r.name}" could not be removed: ${(error as Error).message}`);
    }
  }
  return { written, removed };
}

function changedNote(name: string): string {
  return `"${name}" changed while the memories were being consolidated; left as it is now.`;
}

/**
 * Where a replaced or removed file goes: the trash of the browser scope it belongs to
 * (workspace/memory-scopes.ts): `<memoryDir>/.trash/<ms>-<hex>/<name>` for auto memory and
 * `<memoryDir>/team/.trash/<ms>-<hex>/<name without team/>` for team memory, so the browser lists it
 * under that scope and can restore it.
 */
async function trashSlot(memoryDir: string, name: string, now: Date): Promise<string> {
  const team = name.startsWith('team/');
  const target = path.join(
    team ? teamMemoryDir(memoryDir) : memoryDir,
    '.trash',
    `${now.getTime()}-${randomBytes(4).toString('hex')}`,
    ...(team ? name.slice('team/'.length) : name).split('/'),
  );
  await mkdir(path.dirname(target), { recursive: true });
  return target;
}
