import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * Every file that may be a Carapace transcript: `projects/<slug>/*.jsonl` and
 * `projects/<slug>/<sessionId>/subagents/*.jsonl`. Symbolic links are never followed (a link could
 * lead outside `$CARAPACE_HOME`): a linked project or session folder is passed over, a linked
 * transcript or `subagents` folder is reported. Whether a file is a transcript at
 * all (its first line a `session` line) is decided when it is read.
 */
export function listCarapaceFiles(projectsDir: string): { files: string[]; problems: string[] } {
  const files: string[] = [];
  const problems: string[] = [];
  const entries = (dir: string): Dirent[] => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  // `dir` is already normalized and a name from readdir holds no separator: what path.join would
  // give, without normalizing every one of a thousand paths again.
  const join = (dir: string, name: string) => `${dir}${path.sep}${name}`;
  const take = (dir: string, e: Dirent) => {
    if (!e.name.endsWith('.jsonl')) return;
    if (e.isSymbolicLink())
      problems.push(`${join(dir, e.name)}: skipped, a symbolic link (links are not followed).`);
    else if (e.isFile()) files.push(join(dir, e.name));
  };
  for (const project of entries(projectsDir)) {
    if (!project.isDirectory()) continue;
    const projectDir = join(projectsDir, project.name);
    for (const e of entries(projectDir)) {
      if (e.isDirectory()) {
        if (e.name === 'memory') continue;
        const sub = join(join(projectDir, e.name), 'subagents');
        // readdir would follow a linked `subagents` folder wherever it leads.
        const st = lstatOrNull(sub);
        if (st?.isSymbolicLink()) problems.push(`${sub}: skipped, a symbolic link (links are not followed).`);
        else if (st?.isDirectory()) for (const s of entries(sub)) take(sub, s);
      } else take(projectDir, e);
    }
  }
  return { files, problems };
}

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
