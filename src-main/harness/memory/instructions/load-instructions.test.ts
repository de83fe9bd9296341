import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverInstructions, loadInstructions, ruleMatches } from './index';
import { MAX_INSTRUCTION_BYTES } from './read-with-imports';
import { instructionWorld } from '../../../test-support/instruction-layout';

describe('loadInstructions: discovery and precedence', () => {
  it('reads every scope, broadest first, project folders root first, local after project', async () => {
    const w = instructionWorld();
    w.write('etc-claude-code/CLAUDE.md', 'managed by claude code');
    w.write('etc-carapace/CLAUDE.md', 'managed by carapace');
    w.write('home/.claude/CLAUDE.md', 'user');
    w.write('home/.claude/rules/b.md', 'user rule b');
    w.write('home/.claude/rules/a.md', 'user rule a');
    w.write('home/.claude/rules/deep/not-read.md', 'user rules are not recursive');
    w.write('carapace-home/CLAUDE.md', 'carapace user');
    w.write('work/CLAUDE.md', 'ancestor');
    w.write('work/CLAUDE.local.md', 'ancestor local');
    w.write('work/repo/CLAUDE.md', 'project');
    w.write('work/repo/.claude/CLAUDE.md', 'project dot-claude');
    w.write('work/repo/.claude/rules/style.md', 'rule');
    w.write('work/repo/.claude/rules/api/zod.md', 'nested rule');
    w.write('work/repo/CLAUDE.local.md', 'local');
    w.write('work/repo/sub/CLAUDE.md', 'subfolder: loaded only on Read');

    const loaded = await loadInstructions(w.roots);
    expect(w.rels(loaded)).toEqual([
      'etc-claude-code/CLAUDE.md',
      'etc-carapace/CLAUDE.md',
      'home/.claude/CLAUDE.md',
      'home/.claude/rules/a.md',
      'home/.claude/rules/b.md',
      'carapace-home/CLAUDE.md',
      'work/CLAUDE.md',
      'work/CLAUDE.local.md',
      'work/repo/CLAUDE.md',
      'work/repo/.claude/CLAUDE.md',
      'work/repo/.claude/rules/api/zod.md',
      'work/repo/.claude/rules/style.md',
      'work/repo/CLAUDE.local.md',
    ]);
    const scopes = Object.fromEntries(loaded.files.map((f) => [path.relative(w.root, f.path), f.scope]));
    expect(scopes).toMatchObject({
      'etc-claude-code/CLAUDE.md': 'managed',
      'etc-carapace/CLAUDE.md': 'managed',
      'home/.claude/CLAUDE.md': 'user',
      'home/.claude/rules/a.md': 'user',
      'carapace-home/CLAUDE.md': 'user',
      'work/CLAUDE.md': 'project',
      'work/CLAUDE.local.md': 'local',
      'work/repo/.claude/rules/style.md': 'rules',
      'work/repo/CLAUDE.local.md': 'local',
    });
    expect(loaded.files.every((f) => f.importedBy === null)).toBe(true);
    expect(loaded.notices).toEqual([]);
  });

  it('holds back rules with paths frontmatter and matches them against the files they name', async () => {
    const w = instructionWorld();
    w.write('work/repo/.claude/rules/api.md', '---\npaths:\n  - "src/api/**/*.ts"\n---\nValidate with zod.');
    w.write('home/.claude/rules/tests.md', '---\npaths: "**/*.test.ts"\n---\nNo mocks.');
    w.write('work/repo/.claude/rules/always.md', '---\ndescription: no paths\n---\nAlways.');
    const found = await discoverInstructions(w.roots);
    expect(w.rels(found)).toEqual(['work/repo/.claude/rules/always.md']);
    expect(found.files[0]?.text).toBe('Always.');
    expect(found.conditionalRules.map((r) => path.basename(r.file)).sort()).toEqual(['api.md', 'tests.md']);
    const api = found.conditionalRules.find((r) => r.file.endsWith('api.md'));
    if (!api) throw new Error('no api rule');
    expect(ruleMatches(api, path.join(w.roots.projectDir, 'src/api/v1/users.ts'))).toBe(true);
    expect(ruleMatches(api, path.join(w.roots.projectDir, 'src/web/users.ts'))).toBe(false);
    expect(ruleMatches(api, path.join(w.root, 'elsewhere/src/api/x.ts'))).toBe(false);
  });

  it('strips block HTML comments from the text the model sees', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', 'Use tabs.\n<!-- note to self: @secret.md -->\nShip it.');
    w.write('work/repo/secret.md', 'never imported');
    const loaded = await loadInstructions(w.roots);
    expect(loaded.files.map((f) => f.text)).toEqual(['Use tabs.\nShip it.']);
  });

  it('skips a file over 4 MiB with a notice, and loads one of exactly 4 MiB', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', Buffer.alloc(MAX_INSTRUCTION_BYTES + 1, 'a'));
    w.write('work/repo/CLAUDE.local.md', Buffer.alloc(MAX_INSTRUCTION_BYTES, 'b'));
    const loaded = await loadInstructions(w.roots);
    expect(w.rels(loaded)).toEqual(['work/repo/CLAUDE.local.md']);
    expect(loaded.notices).toEqual([
      expect.stringMatching(/^Skipped .*work\/repo\/CLAUDE\.md: it is 4\.0 MiB, more than the 4 MiB/),
    ]);
  });
});

describe('loadInstructions: @path imports', () => {
  it('resolves relative to the importing file, from home with ~/, and absolute; each after its importer', async () => {
    const w = instructionWorld();
    // Imports that leave the project are for the person's own files (import-guard.test.ts).
    const abs = w.write('shared/abs.md', 'absolute');
    w.write('home/.claude/CLAUDE.md', `Mine: @~/mine.md\n\n@${abs}`);
    w.write('home/mine.md', 'from home');
    w.write('work/repo/CLAUDE.md', `Read @docs/notes.md and @${w.at('work/repo/top.md')}.`);
    w.write('work/repo/docs/notes.md', 'notes, then @../sibling.md');
    w.write('work/repo/sibling.md', 'sibling');
    w.write('work/repo/top.md', 'top');
    const loaded = await loadInstructions(w.roots);
    const project = w.at('work/repo/CLAUDE.md');
    expect(
      loaded.files.map((f) => [
        path.relative(w.root, f.path),
        f.importedBy && path.relative(w.root, f.importedBy),
        f.scope,
      ]),
    ).toEqual([
      ['home/.claude/CLAUDE.md', null, 'user'],
      ['home/mine.md', 'home/.claude/CLAUDE.md', 'user'],
      ['shared/abs.md', 'home/.claude/CLAUDE.md', 'user'],
      ['work/repo/CLAUDE.md', null, 'project'],
      ['work/repo/docs/notes.md', 'work/repo/CLAUDE.md', 'project'],
      ['work/repo/sibling.md', 'work/repo/docs/notes.md', 'project'],
      ['work/repo/top.md', 'work/repo/CLAUDE.md', 'project'],
    ]);
    expect(loaded.files[3]?.path).toBe(project);
    expect(loaded.notices).toEqual([]);
  });

  it('follows 4 hops and not the 5th, with a notice', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', 'root @h1.md');
    for (let i = 1; i <= 5; i++) w.write(`work/repo/h${i}.md`, `hop ${i} @h${i + 1}.md`);
    const loaded = await loadInstructions(w.roots);
    expect(w.rels(loaded)).toEqual([
      'work/repo/CLAUDE.md',
      'work/repo/h1.md',
      'work/repo/h2.md',
      'work/repo/h3.md',
      'work/repo/h4.md',
    ]);
    expect(loaded.notices).toEqual([expect.stringMatching(/h4\.md were not followed: .*4 imports deep/)]);
  });

  it('reads each file of a cycle once and says so', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', '@a.md');
    w.write('work/repo/a.md', 'a @b.md');
    w.write('work/repo/b.md', 'b @a.md and @CLAUDE.md');
    const loaded = await loadInstructions(w.roots);
    expect(w.rels(loaded)).toEqual(['work/repo/CLAUDE.md', 'work/repo/a.md', 'work/repo/b.md']);
    expect(loaded.notices).toHaveLength(2);
    expect(loaded.notices.every((n) => n.startsWith('Import cycle:'))).toBe(true);
  });

  it('sees a cycle through a symlink: the link and its target are one file', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', '@docs/guide.md');
    w.write('work/repo/docs/guide.md', 'guide @../link-to-root.md');
    symlinkSync(w.at('work/repo/CLAUDE.md'), w.at('work/repo/link-to-root.md'));
    const loaded = await loadInstructions(w.roots);
    expect(w.rels(loaded)).toEqual(['work/repo/CLAUDE.md', 'work/repo/docs/guide.md']);
    expect(loaded.notices).toEqual([expect.stringMatching(/^Import cycle: .*link-to-root\.md/)]);
  });

  it('loads a file imported twice once, without calling that a cycle', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', '@a.md @b.md');
    w.write('work/repo/a.md', 'a @common.md');
    w.write('work/repo/b.md', 'b @common.md');
    w.write('work/repo/common.md', 'common');
    const loaded = await loadInstructions(w.roots);
    expect(w.rels(loaded)).toEqual([
      'work/repo/CLAUDE.md',
      'work/repo/a.md',
      'work/repo/common.md',
      'work/repo/b.md',
    ]);
    expect(loaded.notices).toEqual([]);
  });

  it('ignores imports in code spans and fenced blocks', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', 'Run `pnpm add @code-span.md`.\n```\n@fenced.md\n```\n@real.md');
    for (const name of ['code-span.md', 'fenced.md', 'real.md']) w.write(`work/repo/${name}`, name);
    expect(w.rels(await loadInstructions(w.roots))).toEqual(['work/repo/CLAUDE.md', 'work/repo/real.md']);
  });

  it('turns a missing, oversized, binary or folder import into a notice and carries on', async () => {
    const w = instructionWorld();
    w.write('work/repo/CLAUDE.md', '@missing.md @big.md @bin.md @folder @fine.md');
    w.write('work/repo/big.md', Buffer.alloc(MAX_INSTRUCTION_BYTES + 10, 'x'));
    w.write('work/repo/bin.md', Buffer.from([0x41, 0, 0x42]));
    mkdirSync(w.at('work/repo/folder'));
    w.write('work/repo/fine.md', 'fine');
    const loaded = await loadInstructions(w.roots);
    expect(w.rels(loaded)).toEqual(['work/repo/CLAUDE.md', 'work/repo/fine.md']);
    expect(loaded.notices).toEqual([
      expect.stringMatching(/imports .*missing\.md, which does not exist\.$/),
      expect.stringMatching(/^Skipped .*big\.md: it is 4\.0 MiB/),
      expect.stringMatching(/^Skipped .*bin\.md: it looks like a binary file/),
      expect.stringMatching(/imports .*folder, which is not a file\.$/),
    ]);
  });

  it('does not read frontmatter in imported files, only in the rule itself', async () => {
    const w = instructionWorld();
    w.write('work/repo/.claude/rules/r.md', '---\ndescription: x\n---\nrule @../../part.md');
    w.write('work/repo/part.md', '---\npaths: ["never"]\n---\npart');
    const loaded = await loadInstructions(w.roots);
    expect(loaded.files.map((f) => f.text)).toEqual([
      'rule @../../part.md',
      '---\npaths: ["never"]\n---\npart',
    ]);
  });
});
