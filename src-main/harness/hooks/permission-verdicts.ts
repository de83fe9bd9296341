import { lstatSync, readlinkSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { realpathNearest } from '../../platform/real-path';
import type { PermissionDecision } from '../permissions/engine';
import { carapaceHomeReason, protectedPathReason } from '../permissions/protected-paths';
import { isInside } from '../tools/paths';
import { addressKind } from '../tools/web/ip-ranges';
import type { AnyTool, ToolUseContext } from '../tools/tool';
import type { HookSource } from './sources';

/**
 * A PreToolUse hook's `allow` or `ask` for one call, handed to the permission engine's decision:
 * as in Claude Code, the hook runs first, then the rules; `allow` skips the prompt the rules would
 * show, `ask` forces one. Neither overrides a deny (rule or mode), an ask rule, or the containment
 * of the project: protected paths (.git, .claude settings, …), Carapace's own folder, anything
 * outside the project, commands the analysis cannot account for.
 */
export interface HookVerdict {
  decision: 'allow' | 'ask';
  reason: string;
  source: HookSource;
  /** The settings file the hook is written in. */
  file: string;
}

/** `a PreToolUse hook (project settings: /p/.claude/settings.json)`: who decided, for the log. */
export const hookWho = (event: string, source: HookSource, file: string) =>
  `a ${event} hook (${source} settings: ${file})`;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Where a link at `p` points, even when its target does not exist yet (realpath cannot say then). */
function linkTarget(p: string): string | null {
  try {
    return lstatSync(p).isSymbolicLink() ? path.resolve(path.dirname(p), readlinkSync(p)) : null;
  } catch {
    return null;
  }
}

/** Why no hook may approve writing `p`, or null: judged as written, where it leads, and where a link at it points. */
function guardedWrite(p: string, tc: ToolUseContext, carapaceHome: string | null): string | null {
  const lexical = path.resolve(tc.cwd, p);
  const target = linkTarget(lexical);
  for (const at of target ? [lexical, target] : [lexical]) {
    const real = realpathNearest(at);
    const held =
      protectedPathReason(at, tc.projectRoot) ??
      carapaceHomeReason(at, carapaceHome) ??
      (isInside(tc.projectRoot, at) && isInside(realpathNearest(tc.projectRoot), real)
        ? null
        : `${p}${at === lexical ? '' : ` (a link to ${at})`} is outside the project`);
    if (held) return held;
  }
  return null;
}

const RM = new Set(['rm', 'rmdir', 'unlink', 'shred']);

/** git's options before the subcommand that take the next word as their value. */
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env']);
/**
 * git subcommands that write git's own configuration (`.git/config`, `~/.gitconfig`, `.gitmodules`):
 * `core.fsmonitor`, `core.hooksPath`, an alias, a remote's `ext::` URL name programs git runs later,
 * outside any sandbox. The file is protected; a command that writes it without naming it is too.
 */
const GIT_CONFIG_WRITERS = new Set(['config', 'remote', 'submodule']);

/**
 * Commands that install hooks or write tool configuration without naming the file: `pre-commit
 * install` writes `.git/hooks/pre-commit`, husky sets `core.hooksPath`, `npm config set` writes
 * `~/.npmrc`. Matched on the command's name and its first plain words.
 */
const CONFIG_INSTALLERS: readonly (readonly string[])[] = [
  ['pre-commit', 'install'],
  ['lefthook', 'install'],
  ['husky'],
  ['npx', 'husky'],
  ['git', 'lfs', 'install'],
  ['git', 'lfs', 'update'],
  ['npm', 'config', 'set'],
  ['pnpm', 'config', 'set'],
  ['yarn', 'config', 'set'],
];

function installerOf(name: string, args: readonly (string | null)[]): string | null {
  const words = [path.basename(name), ...args.filter((a): a is string => a !== null && !a.startsWith('-'))];
  const hit = CONFIG_INSTALLERS.find((seq) => seq.every((w, i) => words[i] === w));
  return hit ? `${hit.join(' ')} installs hooks or writes tool configuration that runs later` : null;
}

/** Why no hook may approve this git command, or null. Read-only forms never reach here (they do not ask). */
function gitConfigWrite(args: readonly (string | null)[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w === null || w === undefined) return 'a git subcommand named at run time';
    if (GIT_VALUE_OPTIONS.has(w)) {
      i++;
      continue;
    }
    if (w.startsWith('-')) continue;
    return GIT_CONFIG_WRITERS.has(w)
      ? `git ${w} changes git's configuration, which names programs git runs`
      : null;
  }
  return null;
}

/**
 * Why no hook may approve fetching this URL, or null. WebFetch fetches an IP literal, or localhost,
 * as approved (a name is refused at fetch time if it leads to such an address): that approval must
 * be a person's, or an allow-everything hook would hand the model the cloud metadata service
 * (169.254.169.254) or a dev server on this machine.
 */
function localFetch(url: unknown, who = 'WebFetch'): string | null {
  if (typeof url !== 'string') return null;
  let host: string;
  try {
    host = new URL(url.trim()).hostname
      .replace(/^\[|\]$/g, '')
      .toLowerCase()
      .replace(/\.$/, '');
  } catch {
    return null; // WebFetch refuses it itself
  }
  if (host === 'localhost' || host.endsWith('.localhost'))
    return `${who} of ${host} reaches this machine; only a person approves that`;
  if (isIP(host) === 0) return null;
  const kind = addressKind(host);
  return kind === 'public'
    ? null
    : `${who} of ${host}, ${kind === 'unspecified' ? 'this machine' : `a ${kind} address`}, reaches this machine or a network behind it; only a person approves that`;
}

/** Device files a command may name without reaching outside the project. */
const DEVICES = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** How a command word leads outside the project, or null (a word that names no outside path). */
function outsideWord(w: string, lexical: string, tc: ToolUseContext): string | null {
  if (DEVICES.has(w)) return null;
  if (w === '~' || w.startsWith('~/')) return `${w} names a path in the home folder, outside the project`;
  if (!isInside(tc.projectRoot, lexical)) return `${w} names a path outside the project`;
  if (!isInside(realpathNearest(tc.projectRoot), realpathNearest(lexical)))
    return `${w} leads through a link outside the project`;
  return null;
}

/**
 * Why the engine's "ask" for this call is one a hook cannot answer (containment), or null when the
 * ask is only the ordinary "this needs approval" a hook's allow may skip.
 */
export function containmentReason(
  tool: AnyTool,
  input: Record<string, unknown>,
  tc: ToolUseContext,
  decision: PermissionDecision,
  carapaceHome: string | null,
): string | null {
  if (tool.name === 'Bash') {
    const a = decision.analysis;
    if (!a || !a.parsed) return 'the command could not be fully analysed';
    if (a.findings.length > 0) return 'the command has constructs the analysis flags';
    // A read-only command asks only when it reads outside the project.
    if (a.readOnly) return decision.reason;
    for (const c of a.commands) {
      for (const r of c.redirects) {
        if (!r.op.includes('>') || r.target === '/dev/null' || /^(\d+|-)$/.test(r.target ?? '')) continue;
        if (r.target === null || r.glob) return 'a redirect writes to a file named at run time';
        const held = guardedWrite(r.target, tc, carapaceHome);
        if (held) return held;
      }
      const [name, ...args] = c.core;
      if (name === null || name === undefined) return 'a command named at run time';
      if (path.basename(name) === 'git') {
        const git = gitConfigWrite(args);
        if (git) return git;
      }
      const installer = installerOf(name, args);
      if (installer) return installer;
      const isRm = RM.has(path.basename(name));
      for (const w of args) {
        if (w === null) {
          if (isRm) return `${name} of a path named at run time`;
          continue;
        }
        // An option's or an assignment's value (`--output=/x`, `dd of=/x`, `-o/x`) names a path as well.
        const value =
          /^(?:--?[A-Za-z0-9][\w-]*|[A-Za-z_][\w.-]*)=(.+)$/s.exec(w)?.[1] ??
          /^-[A-Za-z]([/~].*)$/s.exec(w)?.[1];
        // A URL to this machine or a network behind it (`curl http://169.254.169.254/…`), as for WebFetch.
        for (const u of [w, value])
          if (u !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(u)) {
            const local = localFetch(u, name);
            if (local) return local;
          }
        if (value !== undefined && /^[/~.]/.test(value)) {
          const at = path.resolve(tc.cwd, value);
          const held =
            protectedPathReason(at, tc.projectRoot) ??
            carapaceHomeReason(at, carapaceHome) ??
            outsideWord(value, at, tc);
          if (held) return `${name} ${w}: ${held}`;
        }
        if (w.startsWith('-')) continue;
        const lexical = path.resolve(tc.cwd, w);
        // Any word naming a protected file (`cp x .git/hooks/pre-commit`) keeps the prompt.
        const guarded =
          protectedPathReason(lexical, tc.projectRoot) ?? carapaceHomeReason(lexical, carapaceHome);
        if (guarded) return guarded;
        // A word naming a path outside the project, as written or through a link in it (`cp
        // keys/id_rsa leak.txt`, `tee ~/.bashrc`, `touch keys/x`), is read or written there: as for
        // Read and Write, that is the person's call, not a hook's.
        const outside = outsideWord(w, lexical, tc);
        if (outside) return `${name} ${outside}`;
        // Removing the project itself, a folder above it, or anything outside it is never a hook's call.
        if (isRm && (c.glob || !isInside(tc.projectRoot, lexical) || lexical === tc.projectRoot))
          return `${name} ${w} removes something no hook may approve`;
      }
    }
    return null;
  }
  if (tool.name === 'WebFetch') {
    const held = localFetch(input['url']);
    if (held) return held;
  }
  for (const w of tool.writesTo(input, tc)) {
    const held = guardedWrite(w, tc, carapaceHome);
    if (held) return held;
  }
  const target = str(input['file_path']) ?? str(input['path']) ?? str(input['notebook_path']);
  if (target !== null) {
    const lexical = path.resolve(tc.cwd, target);
    if (
      !isInside(tc.projectRoot, lexical) ||
      !isInside(realpathNearest(tc.projectRoot), realpathNearest(lexical))
    )
      return `${target} is outside the project`;
  }
  return null;
}

/**
 * For each call the rules ask about, why no hook may answer it with allow (null: a hook may). Keyed
 * by the call's input object, which the gate hands unchanged from the rules' decision to the
 * permission handler, so a PermissionRequest hook racing the person is held by the same containment
 * as a PreToolUse hook; weak, so nothing outlives the call.
 */
const heldAsks = new WeakMap<object, string | null>();

/**
 * Why a hook's allow must not answer this request, or null. A request whose ask was never judged
 * here is held too: fail closed rather than let a broad "allow" hook approve `.git/hooks/x`.
 */
export function hookApprovalHeld(input: object): string | null {
  return heldAsks.has(input) ? (heldAsks.get(input) ?? null) : 'the call was not judged for containment';
}

/** The verdicts of the calls whose PreToolUse hooks are done and whose rules are being judged. */
export class HookVerdicts {
  private readonly byCall = new Map<string, HookVerdict>();

  constructor(private readonly carapaceHome: string | null) {}

  set(toolUseId: string, verdict: HookVerdict): void {
    this.byCall.set(toolUseId, verdict);
  }

  delete(toolUseId: string): void {
    this.byCall.delete(toolUseId);
  }

  /** The engine's decision for a call, revised by its hook's verdict (see HookVerdict). */
  readonly revise = (
    d: PermissionDecision,
    tool: AnyTool,
    input: Record<string, unknown>,
    tc: ToolUseContext,
  ): PermissionDecision => {
    const revised = this.reviseByVerdict(d, tool, input, tc);
    // What reaches the handler as an ask: may a PermissionRequest hook answer it?
    if (revised.behavior === 'ask')
      heldAsks.set(input, containmentReason(tool, input, tc, revised, this.carapaceHome));
    return revised;
  };

  private reviseByVerdict(
    d: PermissionDecision,
    tool: AnyTool,
    input: Record<string, unknown>,
    tc: ToolUseContext,
  ): PermissionDecision {
    const v = this.byCall.get(tc.toolUseId);
    if (!v) return d;
    const who = hookWho('PreToolUse', v.source, v.file);
    const why = v.reason ? `: ${v.reason}` : '';
    if (v.decision === 'ask')
      return d.behavior === 'allow'
        ? { ...d, behavior: 'ask', decidedBy: 'hook', reason: `${who} asks first${why}`, suggestions: [] }
        : d;
    if (d.behavior !== 'ask') return d;
    // An ask rule is still a person's rule: the hook's allow does not answer it.
    if (d.decidedBy === 'rule')
      return { ...d, reason: `${d.reason} (${who} allowed it; the rule still asks)` };
    const held = containmentReason(tool, input, tc, d, this.carapaceHome);
    if (held)
      return { ...d, reason: `${d.reason} (${who} allowed it, but no hook may approve this: ${held})` };
    return { ...d, behavior: 'allow', decidedBy: 'hook', reason: `allowed by ${who}${why}` };
  }
}
