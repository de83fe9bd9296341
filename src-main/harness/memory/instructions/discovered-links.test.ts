import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importBounds } from './import-guard';
import { loadInstructions } from './index';
import { listRuleFiles, MAX_RULE_DEPTH, MAX_RULE_FILES } from './rules-dir';
import { SessionInstructions } from './session-instructions';
import { instructionWorld } from '../../../test-support/instruction-layout';
import type { LoadedInstructions } from './types';

/**
 * A repository can commit symlinks. Whatever discovery finds in the project's scopes (CLAUDE.md,
 * .claude/CLAUDE.md, CLAUDE.local.md, rules, a subfolder's CLAUDE.md attached on Read) must not lead
 * out of the project, as an import may not: the security review's cases, adapted.
 */

/** The review's layout: a downloaded project inside the home folder, the person's files around it. */
function homeWorld() {
  const w = instructionWorld();
  const projectDir = w.at('home/Downloads/cool-tool');
  mkdirSync(projectDir, { recursive: true });
  w.write('home/notes/diary.md', 'PRIVATE-DIARY bank pin 1234');
  w.write('home/.carapace/projects/-home-u-bank/memory/prod.md', 'OTHER-PROJECT-MEMORY hunter2');
  w.write('home/work/bank/docs/incident.md', 'OTHER-REPO-DOC');
  return { ...w, roots: { ...w.roots, projectDir, carapaceHome: w.at('home/.carapace') }, projectDir };
}

const PRIVATE = ['PRIVATE-DIARY', 'OTHER-PROJECT-MEMORY', 'OTHER-REPO-DOC'];

function expectNothingPrivate(loaded: LoadedInstructions): void {
  const text = loaded.files.map((f) => f.text).join('\n');
  for (const marker of PRIVATE) expect(text).not.toContain(marker);
}

const OUTSIDE = 'which is outside the project; files the project ships may only lead to files inside it';

describe('committed symlinks in the project (the review cases)', () => {
  it('an @import of ~/notes/diary.md is refused (the baseline)', async () => {
    const w = homeWorld();
    w.write('home/Downloads/cool-tool/CLAUDE.md', `see @${w.at('home/notes/diary.md')}\n`);
    const loaded = await loadInstructions(w.roots);
    expectNothingPrivate(loaded);
    expect(loaded.notices).toEqual([expect.stringContaining('which is outside the project')]);
  });

  it('CLAUDE.md -> ../../notes/diary.md (a relative link) is not read, with a notice', async () => {
    const w = homeWorld();
    symlinkSync('../../notes/diary.md', path.join(w.projectDir, 'CLAUDE.md'));
    const loaded = await loadInstructions(w.roots);
    expectNothingPrivate(loaded);
    expect(w.rels(loaded)).toEqual([]);
    expect(loaded.notices).toEqual([
      `Skipped ${path.join(w.projectDir, 'CLAUDE.md')}: it leads to ${w.at('home/notes/diary.md')}, ${OUTSIDE}, since their text is sent to the model provider (${w.projectDir}).`,
    ]);
  });

  it('CLAUDE.local.md and .claude/CLAUDE.md linked out are not read either', async () => {
    const w = homeWorld();
    mkdirSync(path.join(w.projectDir, '.claude'), { recursive: true });
    symlinkSync(w.at('home/notes/diary.md'), path.join(w.projectDir, 'CLAUDE.local.md'));
    symlinkSync('../../../work/bank/docs/incident.md', path.join(w.projectDir, '.claude', 'CLAUDE.md'));
    const loaded = await loadInstructions(w.roots);
    expectNothingPrivate(loaded);
    expect(loaded.notices).toHaveLength(2);
    for (const notice of loaded.notices) expect(notice).toContain(OUTSIDE);
  });

  it('.claude/rules/all -> ~ loads none of the Markdown in the home folder, with one notice', async () => {
    const w = homeWorld();
    mkdirSync(path.join(w.projectDir, '.claude', 'rules'), { recursive: true });
    symlinkSync('../../../..', path.join(w.projectDir, '.claude', 'rules', 'all'));
    const loaded = await loadInstructions(w.roots);
    expectNothingPrivate(loaded);
    expect(w.rels(loaded)).toEqual([]);
    expect(loaded.notices).toEqual([
      expect.stringContaining(
        `Skipped ${path.join(w.projectDir, '.claude', 'rules', 'all')}: it leads to ${w.at('home')}, ${OUTSIDE}`,
      ),
    ]);
  });

  it('.claude/rules/root -> / is not walked', async () => {
    const w = homeWorld();
    w.write('home/Downloads/cool-tool/.claude/rules/style.md', 'STYLE');
    symlinkSync('/', path.join(w.projectDir, '.claude', 'rules', 'root'));
    const loaded = await loadInstructions(w.roots);
    expect(loaded.files.map((f) => f.text)).toEqual(['STYLE']);
    expect(loaded.notices).toEqual([expect.stringContaining('it leads to /, which is outside the project')]);
  });

  it('a single rule file linked out, and a conditional (paths) one, are not listed', async () => {
    const w = homeWorld();
    w.write('home/notes/scoped.md', '---\npaths: ["**/*.ts"]\n---\nSCOPED-PRIVATE');
    mkdirSync(path.join(w.projectDir, '.claude', 'rules'), { recursive: true });
    symlinkSync(w.at('home/notes/diary.md'), path.join(w.projectDir, '.claude', 'rules', 'diary.md'));
    symlinkSync(w.at('home/notes/scoped.md'), path.join(w.projectDir, '.claude', 'rules', 'scoped.md'));
    const s = new SessionInstructions(w.roots);
    const loaded = await s.reload();
    expectNothingPrivate(loaded);
    expect(loaded.notices).toHaveLength(2);
    expect(await s.forRead(path.join(w.projectDir, 'src', 'a.ts'))).toEqual([]);
  });

  it("a project file linked to the person's ~/.claude/CLAUDE.md, already loaded as theirs, is skipped quietly", async () => {
    const w = homeWorld();
    w.write('home/.claude/CLAUDE.md', 'USER-PREFS');
    symlinkSync('../../.claude/CLAUDE.md', path.join(w.projectDir, 'CLAUDE.md'));
    const loaded = await loadInstructions(w.roots);
    expect(loaded.files.map((f) => [f.scope, f.text])).toEqual([['user', 'USER-PREFS']]);
    expect(loaded.notices).toEqual([]);
  });

  it('links that stay inside the project are followed, and a link loop is read once', async () => {
    const w = homeWorld();
    w.write('home/Downloads/cool-tool/docs/rules/team.md', 'TEAM-RULE');
    w.write('home/Downloads/cool-tool/docs/guide.md', 'GUIDE');
    w.write('home/Downloads/cool-tool/.claude/rules/own.md', 'OWN-RULE');
    symlinkSync('../../docs/rules', path.join(w.projectDir, '.claude', 'rules', 'team'));
    symlinkSync('.', path.join(w.projectDir, '.claude', 'rules', 'loop'));
    symlinkSync('docs/guide.md', path.join(w.projectDir, 'CLAUDE.md'));
    const loaded = await loadInstructions(w.roots);
    expect(loaded.files.map((f) => f.text)).toEqual(['GUIDE', 'OWN-RULE', 'TEAM-RULE']);
    expect(loaded.notices).toEqual([]);
  });
});

describe('folders above the project and subfolders attached on Read', () => {
  it("an ancestor's own CLAUDE.md and rules are read; its links out of the project are not", async () => {
    const w = instructionWorld();
    w.write('work/CLAUDE.md', 'ANCESTOR');
    w.write('work/.claude/rules/a.md', 'ANCESTOR-RULE');
    w.write('elsewhere/notes.md', 'ELSEWHERE');
    w.write('elsewhere/rules/b.md', 'ELSEWHERE-RULE');
    symlinkSync(w.at('elsewhere/notes.md'), w.at('work/CLAUDE.local.md'));
    symlinkSync(w.at('elsewhere/rules'), w.at('work/.claude/rules/shared'));
    const loaded = await loadInstructions(w.roots);
    expect(w.rels(loaded)).toEqual(['work/CLAUDE.md', 'work/.claude/rules/a.md']);
    expect(loaded.notices).toEqual([
      expect.stringContaining(
        `Skipped ${w.at('work/.claude/rules/shared')}: it leads to ${w.at('elsewhere/rules')}`,
      ),
      expect.stringContaining(
        `Skipped ${w.at('work/CLAUDE.local.md')}: it leads to ${w.at('elsewhere/notes.md')}`,
      ),
    ]);
  });

  it('a subfolder reached through a link out of the project brings nothing on Read', async () => {
    const w = instructionWorld();
    w.write('elsewhere/CLAUDE.md', 'ELSEWHERE');
    w.write('elsewhere/.claude/rules/r.md', 'ELSEWHERE-RULE');
    w.write('work/repo/pkg/x.ts', '');
    w.write('other/pkg-notes.md', 'OTHER-NOTES');
    symlinkSync(w.at('elsewhere'), w.at('work/repo/vendor'));
    symlinkSync(w.at('other/pkg-notes.md'), w.at('work/repo/pkg/CLAUDE.md'));
    const s = new SessionInstructions(w.roots);
    await s.reload();
    expect(await s.forRead(w.at('work/repo/vendor/lib.ts'))).toEqual([]);
    expect(await s.forRead(w.at('work/repo/pkg/x.ts'))).toEqual([]);
    const notices = s.snapshot().notices;
    // vendor/CLAUDE.md, vendor/.claude/rules and pkg/CLAUDE.md.
    expect(notices).toHaveLength(3);
    for (const notice of notices) expect(notice).toContain('which is outside the project');
    expect(s.snapshot().files.map((f) => f.text)).toEqual([]);
  });

  it("a project inside home: the user's ~/.claude/rules (with a linked folder) is the user's, read once", async () => {
    const w = homeWorld();
    w.write('home/.claude/rules/mine.md', 'MINE');
    w.write('home/.claude/rules/nested/deep.md', 'NESTED');
    w.write('shared/s.md', 'SHARED');
    symlinkSync(w.at('shared'), w.at('home/.claude/rules/shared'));
    const loaded = await loadInstructions(w.roots);
    // `~/.claude/rules/*.md` only, as Claude Code reads it; no notice about the person's own links.
    expect(loaded.files.map((f) => [f.scope, f.text])).toEqual([['user', 'MINE']]);
    expect(loaded.notices).toEqual([]);
  });
});

describe('listRuleFiles caps', () => {
  async function listing(w: ReturnType<typeof instructionWorld>, dir: string) {
    const notices: string[] = [];
    const bounds = await importBounds(w.roots.homeDir, w.roots.projectDir);
    const files = await listRuleFiles(dir, { recursive: true, scope: 'rules', bounds, notices });
    return { files: files.map((f) => path.relative(dir, f)), notices };
  }

  it(`reads ${MAX_RULE_DEPTH} folders deep and no deeper, with a notice`, async () => {
    const w = instructionWorld();
    const dir = w.at('work/repo/.claude/rules');
    const levels = Array.from({ length: MAX_RULE_DEPTH + 2 }, (_, i) => `d${i + 1}`);
    for (let depth = 0; depth <= levels.length; depth++)
      w.write(path.join('work/repo/.claude/rules', ...levels.slice(0, depth), 'r.md'), `depth ${depth}`);
    const { files, notices } = await listing(w, dir);
    expect(files).toHaveLength(MAX_RULE_DEPTH + 1);
    expect(files).toContain(path.join(...levels.slice(0, MAX_RULE_DEPTH), 'r.md'));
    expect(files).not.toContain(path.join(...levels.slice(0, MAX_RULE_DEPTH + 1), 'r.md'));
    expect(notices).toEqual([
      `Rules in folders more than ${MAX_RULE_DEPTH} levels below ${dir} were not read (the first was ${path.join(dir, ...levels.slice(0, MAX_RULE_DEPTH + 1))}).`,
    ]);
  });

  it(`takes at most ${MAX_RULE_FILES} rule files, the first by name, with a notice`, async () => {
    const w = instructionWorld();
    const dir = w.at('work/repo/.claude/rules');
    for (let i = 0; i < MAX_RULE_FILES + 5; i++)
      w.write(`work/repo/.claude/rules/r${String(i).padStart(3, '0')}.md`, `rule ${i}`);
    const { files, notices } = await listing(w, dir);
    expect(files).toHaveLength(MAX_RULE_FILES);
    expect(files.at(-1)).toBe(`r${String(MAX_RULE_FILES - 1).padStart(3, '0')}.md`);
    expect(notices).toEqual([
      expect.stringContaining(`Only the first ${MAX_RULE_FILES} rule files in ${dir}`),
    ]);
  });

  it('exactly at the caps: no notice', async () => {
    const w = instructionWorld();
    const dir = w.at('work/repo/.claude/rules');
    for (let i = 0; i < MAX_RULE_FILES; i++)
      w.write(`work/repo/.claude/rules/r${String(i).padStart(3, '0')}.md`, 'x');
    const { files, notices } = await listing(w, dir);
    expect(files).toHaveLength(MAX_RULE_FILES);
    expect(notices).toEqual([]);
  });
});
