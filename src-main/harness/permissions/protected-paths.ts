import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { realpathNearest } from '../../platform/real-path';
import { NOT_ENTERED, walkFolders } from '../../platform/walk';

/**
 * The protected-paths policy: files and folders whose change makes code run outside the agent's
 * control — git's config and hooks (run by the person's next `git status`), Carapace's and Claude
 * Code's own settings (they would widen the agent's permissions), editor and shell start-up files,
 * hook managers and build-tool configuration. One list, used twice: the OS sandbox mounts them
 * read-only for Bash, and Write/Edit ask before touching them in every mode but bypass.
 */

const GIT = 'git internals: git runs the hooks and the commands its config names';
const SETTINGS =
  "Carapace's and Claude Code's settings, agents, commands, skills and hooks: a change there can widen the agent's own permissions";
const EDITOR = 'editor configuration: editors run the tasks and tools it names';
const SHELL = 'a shell start-up file: it runs in every new shell';
const HOOKS = 'a git hook manager: its configuration runs on commit';
const BUILD = 'build tool configuration: it can run code on the next install or build';
const TOOLS = 'configuration read by tools that run outside the sandbox';

/** Folders protected with everything inside them. */
const PROTECTED_DIRS: Record<string, string> = {
  '.git': GIT,
  '.claude': SETTINGS,
  '.vscode': EDITOR,
  '.idea': EDITOR,
  '.devcontainer': EDITOR,
  '.husky': HOOKS,
  '.cargo': BUILD,
  '.yarn': BUILD,
  '.mvn': BUILD,
};

/** Files protected wherever they are. */
const PROTECTED_FILES: Record<string, string> = {
  '.gitconfig': GIT,
  '.gitmodules': 'git submodule configuration: it names commands and URLs git uses',
  '.mcp.json': 'MCP server configuration: it names programs Carapace starts',
  '.claude.json': SETTINGS,
  '.envrc': 'a direnv file: it runs when a shell enters the folder',
  '.bashrc': SHELL,
  '.bash_profile': SHELL,
  '.bash_login': SHELL,
  '.bash_aliases': SHELL,
  '.bash_logout': SHELL,
  '.zshrc': SHELL,
  '.zprofile': SHELL,
  '.zshenv': SHELL,
  '.zlogin': SHELL,
  '.zlogout': SHELL,
  '.profile': SHELL,
  '.npmrc': BUILD,
  '.yarnrc': BUILD,
  '.yarnrc.yml': BUILD,
  '.pnp.cjs': BUILD,
  '.pnp.loader.mjs': BUILD,
  '.pnpmfile.cjs': BUILD,
  'bunfig.toml': BUILD,
  '.bunfig.toml': BUILD,
  '.bazelrc': BUILD,
  '.bazelversion': BUILD,
  '.bazeliskrc': BUILD,
  'gradle-wrapper.properties': BUILD,
  'maven-wrapper.properties': BUILD,
  '.pre-commit-config.yaml': HOOKS,
  'lefthook.yml': HOOKS,
  'lefthook.yaml': HOOKS,
  '.lefthook.yml': HOOKS,
  '.lefthook.yaml': HOOKS,
  'lefthook-local.yml': HOOKS,
  'lefthook-local.yaml': HOOKS,
  '.lefthook-local.yml': HOOKS,
  '.lefthook-local.yaml': HOOKS,
  '.devcontainer.json': EDITOR,
  '.ripgreprc': TOOLS,
  'pyrightconfig.json': TOOLS,
};

function segmentsOf(target: string, projectRoot: string): string[] {
  const rel = path.relative(projectRoot, target);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return (inside ? rel : target).split(path.sep).filter(Boolean);
}

/** Why one spelling of a path is protected, or null. Names compare case-insensitively (macOS, Windows). */
function reasonFor(target: string, projectRoot: string): string | null {
  const parts = segmentsOf(target, projectRoot).map((s) => s.toLowerCase());
  for (let i = 0; i < parts.length; i++) {
    const seg = parts[i] ?? '';
    const isLast = i === parts.length - 1;
    // `.claude/worktrees/<name>` holds checkouts the agent works in, not configuration; what is inside
    // a checkout (its `.git`, its own `.claude`) is judged like anywhere else.
    if (seg === '.claude' && parts[i + 1] === 'worktrees' && i + 2 < parts.length) {
      i += 2;
      continue;
    }
    if (seg === '.config' && parts[i + 1] === 'git') return `${parts.slice(0, i + 2).join('/')} is ${GIT}`;
    const dirReason = PROTECTED_DIRS[seg];
    if (dirReason !== undefined && Object.hasOwn(PROTECTED_DIRS, seg))
      return `${parts.slice(0, i + 1).join('/')} is ${dirReason}`;
    const fileReason = PROTECTED_FILES[seg];
    if (isLast && fileReason !== undefined && Object.hasOwn(PROTECTED_FILES, seg))
      return `${seg} is ${fileReason}`;
  }
  return null;
}

/**
 * Why writing `target` needs a person's approval, or null when it is an ordinary file. Both the path
 * as written and where it really leads are checked: a link named `notes` that points at `.git/config`
 * is as protected as `.git/config` itself.
 */
export function protectedPathReason(target: string, projectRoot: string): string | null {
  const lexical = path.resolve(target);
  return reasonFor(lexical, projectRoot) ?? reasonFor(realpathNearest(lexical), realpathNearest(projectRoot));
}

const inOrAt = (root: string, target: string) => {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

const CARAPACE_HOME_REASON =
  "Carapace's own data folder ($CARAPACE_HOME: its settings, budgets, trust decisions, usage ledger and transcripts): a change there can widen the agent's permissions or hide what it spent";

/**
 * Why writing `target` changes Carapace's own data folder, or null. It matters when that folder lies
 * inside the project (a person opens their home folder): then acceptEdits would otherwise let the
 * model rewrite `settings.json` and lift its own budget. Checked as written and as resolved, against
 * the folder as written and as resolved, so neither a link into it nor a linked home slips past.
 * The memory directory lives inside it too; its own rule (memory-dir-rule.ts) is decided first.
 */
export function carapaceHomeReason(target: string, carapaceHome: string | null | undefined): string | null {
  if (!carapaceHome) return null;
  const home = path.resolve(carapaceHome);
  const homes = [home, realpathNearest(home)];
  const lexical = path.resolve(target);
  const targets = [lexical, realpathNearest(lexical)];
  // Session worktrees live in `worktrees/` of the data folder: a session's own worktree is its
  // project (containment decides there); a path that only resolves into it through a link is judged
  // by where it really leads.
  const guarded = (h: string, t: string) => inOrAt(h, t) && !inOrAt(path.join(h, 'worktrees'), t);
  return homes.some((h) => targets.some((t) => guarded(h, t)))
    ? `${target} is in ${CARAPACE_HOME_REASON}`
    : null;
}

/**
 * For the OS sandbox: the existing entries of Carapace's data folder, when that folder lies in one of
 * the writable `roots`. `projects` stays writable: it holds the session's own folder and temp folder,
 * which commands are given to write in. Only existing paths: a read-only stand-in for an absent
 * `settings.json` would be an empty file Carapace then reads.
 */
export function carapaceHomeDenials(
  carapaceHome: string | null | undefined,
  roots: readonly string[],
): string[] {
  if (!carapaceHome) return [];
  const home = realpathNearest(carapaceHome);
  if (!roots.some((r) => inOrAt(realpathNearest(r), home))) return [];
  let names: string[];
  try {
    names = readdirSync(home);
  } catch {
    return [];
  }
  return names.filter((n) => n !== 'projects').map((n) => path.join(home, n));
}

/** Protected names mounted read-only at a root even when absent (the runtime stubs them while a command runs). */
const ROOT_ALWAYS = [
  '.claude',
  '.mcp.json',
  '.claude.json',
  '.vscode',
  '.idea',
  '.envrc',
  '.gitmodules',
  '.gitconfig',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
];

/** Found at any depth of the walk (the root included), protected when they exist. */
const NESTED_NAMES = new Set([
  '.claude',
  '.vscode',
  '.idea',
  '.mcp.json',
  '.envrc',
  '.gitmodules',
  // Hook managers: what they name runs on the person's next commit.
  '.husky',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  'lefthook-local.yaml',
  '.lefthook-local.yml',
  '.lefthook-local.yaml',
  '.devcontainer',
  '.devcontainer.json',
]);

/**
 * The folder a repository's `core.hooksPath` names (husky sets `.husky/_`), relative paths taken from
 * the root: its scripts run on commit as `.git/hooks` would.
 */
function hooksPathOf(root: string): string | null {
  let text: string;
  try {
    text = readFileSync(path.join(root, '.git', 'config'), 'utf8');
  } catch {
    return null;
  }
  const m = /^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/im.exec(text);
  const value = m?.[1]?.trim();
  if (!value) return null;
  const expanded = value.startsWith('~/') ? path.join(homedir(), value.slice(2)) : value;
  return path.resolve(root, expanded);
}

/**
 * What a `.git` folder must not let the agent change: config and hooks (code git runs), `commondir`
 * (points git at another folder's config and hooks), `info` (attributes name filter drivers),
 * `config.worktree` and other worktrees' pointers. `commondir` is listed only when it exists: a
 * read-only stand-in for an absent one would make git itself fail, so its creation is watched
 * instead (see git-guard.ts).
 */
function gitDenials(gitDir: string, root: boolean): string[] {
  const out = [path.join(gitDir, 'config'), path.join(gitDir, 'hooks')];
  // `modules` holds submodules' repositories: their config and hooks run on the person's git status.
  for (const name of ['commondir', 'info', 'worktrees', 'modules']) {
    const p = path.join(gitDir, name);
    if (existsSync(p)) out.push(p);
  }
  // An empty stand-in for an absent config.worktree is harmless to git; only at the root, where the
  // person's own git runs, so nested repositories are not littered with stubs.
  if (root) out.push(path.join(gitDir, 'config.worktree'));
  return out;
}

function kindOf(p: string): 'dir' | 'file' | 'link' | null {
  try {
    const s = lstatSync(p);
    return s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

export interface DenialOptions {
  /** How deep to look for nested repositories and settings folders (the runtime's default is 3). */
  depth?: number;
  /** At most this many folders are read, so a huge tree cannot stall a command. */
  maxDirs?: number;
}

/**
 * Every path the OS sandbox must mount read-only for commands working in `roots` (the project and any
 * worktree roots), symlinks resolved — computed from the roots, never from the process's working
 * directory, which in the desktop app and serve mode is not the project. `.claude` is created when
 * absent so the sandbox can hold it read-only while Carapace itself can still write its rules there.
 */
export function sandboxWriteDenials(roots: readonly string[], o: DenialOptions = {}): string[] {
  const depth = o.depth ?? 3;
  const maxDirs = o.maxDirs ?? 5_000;
  const out = new Set<string>();
  for (const given of roots) {
    const root = realpathNearest(given);
    if (kindOf(path.join(root, '.claude')) === null) {
      try {
        mkdirSync(path.join(root, '.claude'), { mode: 0o755 });
      } catch {
        // A read-only project: then nothing can write there anyway; the stub covers it.
      }
    }
    for (const name of ROOT_ALWAYS) out.add(path.join(root, name));
    const git = path.join(root, '.git');
    const gitKind = kindOf(git);
    if (gitKind === 'dir') {
      for (const p of gitDenials(git, true)) out.add(p);
      const hooks = hooksPathOf(root);
      if (hooks !== null && kindOf(hooks) !== null) out.add(hooks);
    } else if (gitKind !== null) out.add(git);
    // Nested repositories and settings folders, breadth first, without following links.
    walkFolders(root, { depth, maxDirs, skip: NOT_ENTERED }, (dir, entries) => {
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.name === '.git' && dir !== root) {
          if (e.isDirectory()) for (const g of gitDenials(p, false)) out.add(g);
          else out.add(p);
        } else if (NESTED_NAMES.has(e.name)) out.add(p);
      }
    });
  }
  return [...out];
}
