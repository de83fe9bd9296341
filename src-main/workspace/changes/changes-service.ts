import { constants } from 'node:fs';
import { copyFile, lstat, mkdtemp, open, readlink, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ChangedFile, ChangeSet, ChangeStatus, FileDiff } from '@shared/ipc/contract/changes';
import { AppError } from '../../platform/errors';
import { commitMessageFor } from './commit-message';
import { openRefusal } from './open-refusal';
import { git, gitOk, GitError } from './git';
import { stdoutOrThrow } from '../git-commands';
import { worktreeProblem } from '../worktree-check';
import { addedFileHunk, parseFileDiff, type ParsedDiff } from './parse-diff';

/**
 * What a session changed, for the Changes view. A session in its own worktree is compared with the
 * point its branch left its base (committed and uncommitted work together, so nothing the agent did
 * is hidden); any other session with its project's uncommitted changes (`git diff HEAD` and the
 * untracked files). git runs hardened (git.ts), diffs without external diff or textconv programs,
 * and every path from the window must be one git itself lists right now.
 */

export interface SessionTarget {
  /** The project folder. */
  root: string;
  /** The session's worktree, when it has one. */
  worktree: { path: string; prefix: string; branch: string; base: string } | null;
}

export interface ChangesDeps {
  target(sessionId: string): SessionTarget;
  /** Opens a file in the system's editor (Electron's shell.openPath); null where there is none. */
  openPath: ((absolutePath: string) => Promise<string>) | null;
}

/** Files listed at most; a checkout of generated files stays usable. */
export const MAX_FILES = 5000;
/** Untracked files larger than this are listed but not read for a diff. */
const MAX_UNTRACKED_BYTES = 8 * 1024 * 1024;
/** git's hash of the empty tree: the base of a repository without commits yet. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const BRANCH = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

interface Resolved {
  cwd: string;
  source: 'worktree' | 'uncommitted';
  /** The commit the diff is taken against. */
  baseRef: string;
  base: string;
  branch: string | null;
}

const STATUS: Record<string, ChangeStatus> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'added',
  T: 'typechange',
};

/** Runs a step, turning git's failures into the contract's errors. */
async function step<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GitError) throw new AppError('CONFLICT', error.message);
    throw error;
  }
}

export class ChangesService {
  constructor(private readonly deps: ChangesDeps) {}

  private async resolve(sessionId: string): Promise<Resolved | null> {
    const t = this.deps.target(sessionId);
    const wt = t.worktree;
    // A worktree that is gone, or whose path now leads elsewhere (a link to another repository):
    // git must not read, stage or discard there (workspace/worktree-check.ts).
    const gone = wt ? worktreeProblem(t.root, wt) : null;
    if (gone !== null) throw new AppError('CONFLICT', gone);
    const cwd = wt ? path.join(wt.path, wt.prefix) : t.root;
    const inside = await git(cwd, ['rev-parse', '--is-inside-work-tree'], { readOnly: true });
    if (inside.code !== 0 || inside.stdout.trim() !== 'true') return null;
    if (wt) {
      if (!BRANCH.test(wt.base) || wt.base.includes('..'))
        throw new AppError('CONFLICT', `The base branch "${wt.base}" is not a plain branch name.`);
      const baseRef = (
        await gitOk(
          cwd,
          ['merge-base', `refs/heads/${wt.base}`, 'HEAD'],
          'Finding where the branch left its base',
          {
            readOnly: true,
          },
        )
      ).trim();
      return { cwd, source: 'worktree', baseRef, base: wt.base, branch: wt.branch };
    }
    const head = await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { readOnly: true });
    const baseRef = head.code === 0 ? head.stdout.trim() : EMPTY_TREE;
    return { cwd, source: 'uncommitted', baseRef, base: 'HEAD', branch: null };
  }

  private async need(sessionId: string): Promise<Resolved> {
    const r = await this.resolve(sessionId);
    if (!r)
      throw new AppError(
        'UNAVAILABLE',
        'This project is not in a git repository, so there are no changes to show.',
      );
    return r;
  }

  async list(sessionId: string): Promise<ChangeSet> {
    return step(async () => {
      const r = await this.resolve(sessionId);
      if (!r) return { source: 'not-git', base: null, branch: null, files: [], truncated: false };
      const files = await this.files(r);
      return {
        source: r.source,
        base: r.base,
        branch: r.branch,
        files: files.slice(0, MAX_FILES),
        truncated: files.length > MAX_FILES,
      };
    });
  }

  /** Tracked files under the folder that git is told to skip (assume-unchanged, skip-worktree) and that exist. */
  private async hiddenPaths(r: Resolved): Promise<string[]> {
    const entries = await gitOk(r.cwd, ['ls-files', '-v', '-z', '--', '.'], 'Listing tracked files', {
      readOnly: true,
    });
    const hidden: string[] = [];
    for (const e of entries.split('\0')) {
      const tag = e[0] ?? '';
      if (e.length < 3 || !(tag === 'S' || (tag >= 'a' && tag <= 'z'))) continue;
      const p = e.slice(2);
      if (await exists(path.join(r.cwd, p))) hidden.push(p);
    }
    return hidden;
  }

  /**
   * A copy of the index with every assume-unchanged and skip-worktree bit cleared, when an entry
   * under the folder has one and its file is there, else null. git's diff skips such entries: one
   * `git update-index --assume-unchanged src/x.ts` (a command the agent may run) would otherwise hide
   * every later change to that file from this view. The real index is never touched; a sparse
   * checkout's absent files keep their bit.
   */
  private async unhiddenIndex(r: Resolved): Promise<{ file: string; dispose: () => Promise<void> } | null> {
    const hidden = await this.hiddenPaths(r);
    if (hidden.length === 0) return null;
    const real = (
      await gitOk(r.cwd, ['rev-parse', '--git-path', 'index'], 'Finding the index', { readOnly: true })
    ).trim();
    const dir = await mkdtemp(path.join(tmpdir(), 'carapace-changes-index-'));
    const dispose = () => rm(dir, { recursive: true, force: true });
    try {
      const file = path.join(dir, 'index');
      await copyFile(path.resolve(r.cwd, real), file);
      const input = `${hidden.join('\0')}\0`;
      // One bit per call: given together with --stdin, git clears only the first.
      for (const flag of ['--no-assume-unchanged', '--no-skip-worktree'])
        await gitOk(r.cwd, ['update-index', '-z', flag, '--stdin'], 'Reading hidden files', {
          input,
          indexFile: file,
        });
      return { file, dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  }

  /** Tracked changes (raw for status and modes, numstat for counts) and the untracked files. */
  private async files(r: Resolved, counts = true): Promise<ChangedFile[]> {
    const index = await this.unhiddenIndex(r);
    try {
      return await this.filesWith(r, counts, index?.file);
    } finally {
      await index?.dispose();
    }
  }

  private async filesWith(
    r: Resolved,
    counts: boolean,
    indexFile: string | undefined,
  ): Promise<ChangedFile[]> {
    const read = { readOnly: true, ...(indexFile === undefined ? {} : { indexFile }) };
    const diff = (format: string) => [
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--relative',
      '-M',
      '-z',
      format,
      r.baseRef,
      '--',
    ];
    const [raw, num, others, ignored] = await Promise.all([
      gitOk(r.cwd, diff('--raw'), 'Listing the changes', read),
      gitOk(r.cwd, diff('--numstat'), 'Counting the changes', read),
      gitOk(
        r.cwd,
        ['ls-files', '--others', '--exclude-standard', '-z', '--', '.'],
        'Listing untracked files',
        read,
      ),
      // Ignored entries, a whole ignored folder as one: an untracked `.gitignore` among them ignores
      // itself (`tools/.gitignore` holding `*`) and exists only to hide what lies beside it.
      gitOk(
        r.cwd,
        ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z', '--', '.'],
        'Listing ignored files',
        read,
      ),
    ]);
    const byPath = new Map<string, ChangedFile>();
    const rawParts = raw.split('\0');
    for (let i = 0; i < rawParts.length; i++) {
      const meta = rawParts[i] ?? '';
      if (!meta.startsWith(':')) continue;
      const [oldMode = '', newMode = '', , , st = ''] = meta.slice(1).split(' ');
      const letter = st[0] ?? 'M';
      const renamed = letter === 'R' || letter === 'C';
      const first = rawParts[++i] ?? '';
      const second = renamed ? (rawParts[++i] ?? '') : null;
      const p = second ?? first;
      byPath.set(p, {
        path: p,
        oldPath: letter === 'R' ? first : null,
        status: STATUS[letter] ?? 'modified',
        additions: 0,
        deletions: 0,
        binary: false,
        symlink: oldMode === '120000' || newMode === '120000',
      });
    }
    const numParts = num.split('\0');
    for (let i = 0; i < numParts.length; i++) {
      const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(numParts[i] ?? '');
      if (!m) continue;
      // A rename's record is "a\td\t" followed by the old and the new path as their own fields.
      const p = m[3] === '' ? ((i += 2), numParts[i] ?? '') : (m[3] ?? '');
      const f = byPath.get(p);
      if (!f) continue;
      f.binary = m[1] === '-';
      f.additions = f.binary ? null : Number(m[1]);
      f.deletions = f.binary ? null : Number(m[2]);
    }
    const out = [...byPath.values()];
    const selfIgnoring = ignored.split('\0').filter((p) => p === '.gitignore' || p.endsWith('/.gitignore'));
    for (const p of [...others.split('\0'), ...selfIgnoring]) {
      if (p === '' || byPath.has(p)) continue;
      out.push(counts ? await this.untracked(r.cwd, p) : untrackedEntry(p));
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** An untracked file, read without following a link: a link's "content" is its target. */
  private async untracked(cwd: string, p: string): Promise<ChangedFile> {
    const f = untrackedEntry(p);
    const content = await readUntracked(path.join(cwd, p));
    f.symlink = content.kind === 'link';
    f.binary = content.kind === 'binary';
    if (content.kind === 'text' || content.kind === 'link') f.additions = lineCount(content.text);
    return f;
  }

  /** The file must be one the list holds right now: nothing else is ever diffed, staged or opened. */
  private async listed(r: Resolved, p: string): Promise<ChangedFile> {
    // Without reading every untracked file for its counts: only the name matters here.
    const f = (await this.files(r, false)).find((x) => x.path === p);
    if (!f)
      throw new AppError(
        'NOT_FOUND',
        `"${p}" is not among the changed files (the list may be out of date; refresh it).`,
      );
    return f;
  }

  async diff(sessionId: string, p: string): Promise<FileDiff> {
    return step(async () => {
      const r = await this.need(sessionId);
      const f = await this.listed(r, p);
      if (f.status === 'untracked') {
        const content = await readUntracked(path.join(r.cwd, p));
        if (content.kind !== 'text' && content.kind !== 'link')
          return {
            path: p,
            status: f.status,
            binary: content.kind === 'binary',
            symlink: false,
            hunks: [],
            truncated: content.kind === 'large',
          };
        const { hunk, truncated } = addedFileHunk(content.text);
        return {
          path: p,
          status: f.status,
          binary: false,
          symlink: content.kind === 'link',
          hunks: hunk ? [hunk] : [],
          truncated,
        };
      }
      const parsed = await this.trackedDiff(r, f);
      return {
        path: p,
        status: f.status,
        binary: parsed.binary || f.binary,
        symlink: parsed.symlink || f.symlink,
        hunks: parsed.hunks.map(({ patch: _patch, ...h }) => h),
        truncated: parsed.truncated,
      };
    });
  }

  private async trackedDiff(r: Resolved, f: ChangedFile): Promise<ParsedDiff> {
    const paths = f.oldPath ? [f.oldPath, f.path] : [f.path];
    const index = await this.unhiddenIndex(r);
    const run = await git(
      r.cwd,
      ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--relative', '-M', r.baseRef, '--', ...paths],
      { readOnly: true, ...(index ? { indexFile: index.file } : {}) },
    ).finally(() => index?.dispose());
    const parsed = parseFileDiff(stdoutOrThrow(run, 'Reading the diff'));
    // Output past git.ts's cap was cut: a diff of few but very long lines (a minified bundle) ends
    // there with no line limit reached, and must still say it is not whole, or a change placed past
    // the cut would pass for reviewed.
    return run.cut ? { ...parsed, truncated: true } : parsed;
  }

  /** The hunk's patch (header + that hunk), if the diff still holds it where the window saw it. */
  private async hunkPatch(
    r: Resolved,
    p: string,
    index: number,
    header: string,
  ): Promise<{ patch: string; file: ChangedFile }> {
    const f = await this.listed(r, p);
    if (f.status === 'untracked') return { patch: '', file: f };
    if (f.binary) throw new AppError('CONFLICT', 'A binary file has no hunks; stage the whole file instead.');
    const parsed = await this.trackedDiff(r, f);
    const h = parsed.hunks[index];
    if (!h || h.header !== header)
      throw new AppError('CONFLICT', 'The file changed since its diff was shown; refresh and try again.');
    return { patch: h.patch, file: f };
  }

  async stageFile(sessionId: string, p: string): Promise<{ staged: true }> {
    return step(async () => {
      const r = await this.need(sessionId);
      const f = await this.listed(r, p);
      const paths = f.oldPath ? [f.oldPath, f.path] : [f.path];
      await gitOk(r.cwd, ['add', '-A', '--', ...paths], `Staging ${p}`);
      return { staged: true as const };
    });
  }

  async stageHunk(sessionId: string, p: string, index: number, header: string): Promise<{ staged: true }> {
    return step(async () => {
      const r = await this.need(sessionId);
      const { patch, file } = await this.hunkPatch(r, p, index, header);
      // An untracked file is one all-added hunk: staging it is adding the file.
      if (file.status === 'untracked') await gitOk(r.cwd, ['add', '--', p], `Staging ${p}`);
      else
        await gitOk(r.cwd, ['apply', '--cached', '--whitespace=nowarn', '-'], 'Staging the hunk', {
          input: patch,
        });
      return { staged: true as const };
    });
  }

  async discardHunk(
    sessionId: string,
    p: string,
    index: number,
    header: string,
  ): Promise<{ discarded: true }> {
    return step(async () => {
      const r = await this.need(sessionId);
      const { patch, file } = await this.hunkPatch(r, p, index, header);
      if (file.status === 'untracked')
        throw new AppError(
          'CONFLICT',
          'An untracked file is not discarded from here; delete the file itself if you mean to.',
        );
      await gitOk(r.cwd, ['apply', '-R', '--whitespace=nowarn', '-'], 'Discarding the hunk', {
        input: patch,
      });
      // Staged too? Take it out of the index as well, or the commit would still carry it.
      const check = await git(r.cwd, ['apply', '-R', '--cached', '--check', '-'], { input: patch });
      if (check.code === 0)
        await gitOk(r.cwd, ['apply', '-R', '--cached', '-'], 'Unstaging the discarded hunk', {
          input: patch,
        });
      return { discarded: true as const };
    });
  }

  async suggestMessage(sessionId: string): Promise<{ message: string }> {
    const set = await this.list(sessionId);
    return { message: commitMessageFor(set.files) };
  }

  /** Commits what is staged; with nothing staged, every change under the project folder. */
  async commit(sessionId: string, message: string): Promise<{ commit: string; files: number }> {
    return step(async () => {
      const r = await this.need(sessionId);
      const staged = await git(r.cwd, ['diff', '--cached', '--quiet', '--relative', '--', '.'], {
        readOnly: true,
      });
      if (staged.code === 0) {
        // `git add` skips a file git is told to ignore, though the list shows its change: committing
        // "everything" would quietly leave it out.
        const hidden = new Set(await this.hiddenPaths(r));
        const left =
          hidden.size === 0
            ? []
            : (await this.files(r, false)).filter((f) => hidden.has(f.path)).map((f) => f.path);
        if (left.length > 0)
          throw new AppError(
            'CONFLICT',
            `git is told to ignore changes to ${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''} (assume-unchanged or skip-worktree), so committing everything would leave ${left.length === 1 ? 'it' : 'them'} out. Stage what you mean to commit, or clear the mark (git update-index --no-assume-unchanged --no-skip-worktree).`,
          );
        await gitOk(r.cwd, ['add', '-A', '--', '.'], 'Staging the changes');
      }
      const names = await gitOk(r.cwd, ['diff', '--cached', '--name-only', '-z'], 'Listing what is staged', {
        readOnly: true,
      });
      const files = names.split('\0').filter((n) => n !== '').length;
      if (files === 0) throw new AppError('CONFLICT', 'There is nothing to commit.');
      await gitOk(r.cwd, ['commit', '--no-verify', '-F', '-'], 'Committing', {
        input: message,
        identity: true,
      });
      const commit = (
        await gitOk(r.cwd, ['rev-parse', 'HEAD'], 'Reading the new commit', { readOnly: true })
      ).trim();
      return { commit, files };
    });
  }

  async openInEditor(sessionId: string, p: string): Promise<{ opened: true }> {
    const openPath = this.deps.openPath;
    if (!openPath)
      throw new AppError(
        'UNAVAILABLE',
        'Opening a file in the system editor is not available in the browser; it works in the desktop app.',
      );
    return step(async () => {
      const r = await this.need(sessionId);
      const f = await this.listed(r, p);
      if (f.status === 'deleted')
        throw new AppError('NOT_FOUND', `"${p}" was deleted; there is no file to open.`);
      const abs = path.join(r.cwd, p);
      // A link (or a folder on the way) leading out of the project is not opened: the editor would follow it.
      const [real, rootReal] = await Promise.all([realpath(abs), realpath(r.cwd)]);
      if (real !== rootReal && !real.startsWith(rootReal + path.sep))
        throw new AppError('FORBIDDEN', `"${p}" leads outside the project; it is not opened.`);
      // The system's open runs programs and shortcuts: a repository's file must only ever be shown.
      const info = await stat(real);
      const refused = info.isFile() ? openRefusal([p, real], info.mode) : 'it is not a regular file';
      if (refused !== null) throw new AppError('FORBIDDEN', `"${p}" is not opened: ${refused}.`);
      const error = await openPath(real);
      if (error !== '') throw new AppError('UNAVAILABLE', `The system could not open "${p}": ${error}`);
      return { opened: true as const };
    });
  }
}

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

function untrackedEntry(p: string): ChangedFile {
  return {
    path: p,
    oldPath: null,
    status: 'untracked',
    additions: null,
    deletions: 0,
    binary: false,
    symlink: false,
  };
}

type Untracked = { kind: 'text' | 'link'; text: string } | { kind: 'binary' | 'large' | 'other' };

/** An untracked file's content, read through lstat (a link is its target, never followed). */
async function readUntracked(abs: string): Promise<Untracked> {
  const st = await lstat(abs).catch(() => null);
  if (!st) return { kind: 'other' };
  if (st.isSymbolicLink()) return { kind: 'link', text: await readlink(abs) };
  if (!st.isFile()) return { kind: 'other' };
  if (st.size > MAX_UNTRACKED_BYTES) return { kind: 'large' };
  // Not following a link and not waiting on a FIFO swapped in after the lstat.
  const fh = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    () => null,
  );
  if (!fh) return { kind: 'other' };
  try {
    if (!(await fh.stat()).isFile()) return { kind: 'other' };
    const buf = await fh.readFile();
    // git's own test: a NUL in the first 8,000 bytes means binary.
    if (buf.subarray(0, 8000).includes(0)) return { kind: 'binary' };
    return { kind: 'text', text: buf.toString('utf8') };
  } finally {
    await fh.close();
  }
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

const Worktree = z.object({
  path: z.string().min(1),
  prefix: z.string().default(''),
  branch: z.string(),
  base: z.string(),
});

/** A session's target from its summary: its worktree, when the summary names a well-formed one. */
export function sessionTargetFrom(root: string, summary: object): SessionTarget {
  const parsed = Worktree.safeParse((summary as { worktree?: unknown }).worktree);
  return { root, worktree: parsed.success ? parsed.data : null };
}
