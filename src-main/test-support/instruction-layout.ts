import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp';
import type { InstructionRoots, LoadedInstructions } from '../harness/memory/instructions/types';

/**
 * A temp world for instruction tests: a home, a `$CARAPACE_HOME`, two managed folders and a project
 * three folders deep, all injectable roots. `write` takes paths relative to the world's root.
 */
export function instructionWorld() {
  const root = tempDir('carapace-instructions-');
  const roots: InstructionRoots = {
    projectDir: path.join(root, 'work', 'repo'),
    homeDir: path.join(root, 'home'),
    carapaceHome: path.join(root, 'carapace-home'),
    managedDirs: [path.join(root, 'etc-claude-code'), path.join(root, 'etc-carapace')],
  };
  mkdirSync(roots.projectDir, { recursive: true });
  mkdirSync(roots.homeDir, { recursive: true });
  const at = (rel: string) => path.join(root, rel);
  function write(rel: string, text: string | Buffer): string {
    const file = at(rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  }
  /** The loaded files as world-relative paths (anything from above the temp root left out). */
  const rels = (loaded: LoadedInstructions) =>
    loaded.files.filter((f) => f.path.startsWith(root + path.sep)).map((f) => path.relative(root, f.path));
  return { root, roots, at, write, rels };
}
