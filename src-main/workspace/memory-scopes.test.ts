import { describe, expect, it } from 'vitest';
import { isInside } from '../harness/memory/dir/validate-memory-path';
import { scopeDefs } from './memory-scopes';
import { trashAnchor } from './memory-trash';

describe('scopeDefs trash folders', () => {
  const loc = {
    projectRoot: '/home/me/Downloads/cool-tool',
    homeDir: '/home/me',
    carapaceHome: '/home/me/.carapace',
    memoryDir: '/home/me/.carapace/projects/x/memory',
    managedDirs: [],
  };
  const defs = scopeDefs(loc);

  // A repository decides what its folders hold, links included: its files' trash must not be there.
  it('keeps the trash of project, local and rules files in the app data folder, one per folder', () => {
    const repoSide = defs.filter((d) => ['project', 'local', 'rules'].includes(d.scope));
    const trashes = repoSide.flatMap((d) => d.roots.map((r) => r.trashDir ?? ''));
    for (const t of trashes) {
      expect(isInside(t, loc.carapaceHome), t).toBe(true);
      expect(isInside(t, loc.projectRoot), t).toBe(false);
      expect(trashAnchor(t)).toBe(loc.carapaceHome);
    }
    expect(new Set(trashes).size).toBe(trashes.length);
  });

  it('gives every trash folder an anchor the trash checks start from', () => {
    for (const d of defs)
      for (const r of d.roots) if (r.trashDir) expect(() => trashAnchor(r.trashDir ?? '')).not.toThrow();
    const rules = defs.find((d) => d.scope === 'rules')?.roots[0];
    expect(rules?.realWithin).toBe(loc.projectRoot);
  });
});
