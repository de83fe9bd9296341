import { copyFileSync, existsSync, lstatSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { PermissionMode } from '@shared/domain/permissions';
import type { TrustItem } from '@shared/domain/trust';
import { AppError } from '../../platform/errors';
import { writeJsonFileAtomic } from '../../platform/json-file';
import { parseRule, RuleSyntaxError, type PermissionRule, type RuleBehavior, type RuleSource } from './rule';
import { readJsonObject, readSettingsFile, type ParsedSettings } from './settings-file';
import { trustKey, wideningItems, type TrustLookup } from './trust';

export interface SandboxSettings {
  enabled: boolean;
  autoAllowBashIfSandboxed: boolean;
  excludedCommands: string[];
  allowedDomains: string[];
}

export interface SettingsFileInfo {
  source: RuleSource;
  path: string;
  exists: boolean;
}

export interface PermissionSources {
  rules: PermissionRule[];
  /** Files, keys or rules that could not be used, in words; the rest still applies. */
  problems: string[];
  sandbox: SandboxSettings;
  files: SettingsFileInfo[];
  /** Widening items of the project's own files left out because the folder does not trust them. */
  untrusted: TrustItem[];
  /**
   * Set when the managed policy exists but cannot be read at all (not JSON, unreadable): nothing may
   * run then, since running would mean running unmanaged.
   */
  policyError: string | null;
}

export interface SourceLocations {
  /** `~/.carapace` (or CARAPACE_HOME). */
  home: string;
  projectRoot: string;
  /** The managed policy file; `CARAPACE_MANAGED_SETTINGS` or /etc/carapace/managed-settings.json. */
  policyFile: string;
  cli?: {
    allowedTools?: readonly string[];
    disallowedTools?: readonly string[];
    permissionMode?: PermissionMode | null;
  };
  session?: readonly PermissionRule[];
  /**
   * Which widening items of the project's own files the person accepted. Without it nothing of theirs
   * that widens applies (fail closed); deny and ask rules always do.
   */
  trust?: TrustLookup;
}

export function localSettingsFile(projectRoot: string): string {
  return path.join(projectRoot, '.claude', 'settings.local.json');
}

export function settingsFiles(loc: SourceLocations): SettingsFileInfo[] {
  const files: [RuleSource, string][] = [
    ['policy', loc.policyFile],
    ['local', localSettingsFile(loc.projectRoot)],
    ['project', path.join(loc.projectRoot, '.claude', 'settings.json')],
    ['user', path.join(loc.home, 'settings.json')],
  ];
  return files.map(([source, p]) => ({ source, path: p, exists: existsSync(p) }));
}

const unreadablePolicy = (problem: string) =>
  `The managed policy ${problem}; nothing runs until it is fixed or removed`;

/**
 * Why the managed policy stops everything, or null: it exists but cannot be read at all. A missing
 * policy is no policy; a policy with bad keys still applies its good ones.
 */
export function managedPolicyError(policyFile: string): string | null {
  const read = readSettingsFile(policyFile);
  return read.kind === 'unreadable' ? unreadablePolicy(read.problem) : null;
}

/**
 * Reads every permission source, highest precedence first: managed policy, command line, local,
 * project, user, session. Lists merge across sources; for a single value (the default mode, a
 * sandbox switch) the highest source that sets it wins. Files are read key by key: a broken key or
 * rule is reported and skipped, the rest of its file applies. The project's own files (local and
 * project, both of which a repository can ship) widen nothing the folder's trust has not accepted.
 */
export function loadPermissionSources(loc: SourceLocations): PermissionSources {
  const rules: PermissionRule[] = [];
  const problems: string[] = [];
  const untrusted: TrustItem[] = [];
  let policyError: string | null = null;
  const sandbox: {
    enabled: boolean | undefined;
    autoAllowBashIfSandboxed: boolean | undefined;
    excludedCommands: string[];
    allowedDomains: string[];
  } = {
    enabled: undefined,
    autoAllowBashIfSandboxed: undefined,
    excludedCommands: [],
    allowedDomains: [],
  };
  const add = (
    texts: readonly string[] | undefined,
    source: RuleSource,
    behavior: RuleBehavior,
    base: string,
  ) => {
    for (const text of texts ?? []) {
      try {
        const rule = parseRule(text, source, behavior, base);
        rules.push(rule);
        if (rule.unusable) problems.push(rule.unusable);
      } catch (error) {
        problems.push(error instanceof RuleSyntaxError ? error.message : String(error));
      }
    }
  };
  const files = settingsFiles(loc);
  const bySource = new Map(files.map((f) => [f.source, f]));
  let accepted: ReadonlySet<string> | null = null;
  const acceptedKeys = () => (accepted ??= loc.trust?.accepted(loc.projectRoot) ?? new Set<string>());
  const fromFile = (source: RuleSource) => {
    const f = bySource.get(source);
    if (!f?.exists) return;
    const read = readSettingsFile(f.path);
    if (read.kind === 'unreadable') {
      if (source === 'policy') {
        policyError = unreadablePolicy(read.problem);
        problems.push(policyError);
      } else problems.push(`${read.problem}; its rules are ignored`);
      return;
    }
    if (read.kind !== 'ok') return;
    problems.push(...read.problems);
    let s = read.settings;
    if (source === 'local' || source === 'project') {
      const rel = path.relative(loc.projectRoot, f.path);
      const keys = acceptedKeys();
      const left = wideningItems(s, rel).filter((i) => !keys.has(i.key));
      untrusted.push(...left);
      s = withoutItems(s, new Set(left.map((i) => i.key)));
    }
    const base = source === 'user' ? loc.home : source === 'policy' ? path.dirname(f.path) : loc.projectRoot;
    add(s.deny, source, 'deny', base);
    add(s.ask, source, 'ask', base);
    add(s.allow, source, 'allow', base);
    sandbox.enabled ??= s.sandbox.enabled;
    sandbox.autoAllowBashIfSandboxed ??= s.sandbox.autoAllowBashIfSandboxed;
    sandbox.excludedCommands.push(...s.sandbox.excludedCommands);
    sandbox.allowedDomains.push(...s.sandbox.allowedDomains);
  };
  fromFile('policy');
  add(loc.cli?.disallowedTools, 'cli', 'deny', loc.projectRoot);
  add(loc.cli?.allowedTools, 'cli', 'allow', loc.projectRoot);
  fromFile('local');
  fromFile('project');
  fromFile('user');
  rules.push(...(loc.session ?? []));
  const seen = new Set<string>();
  return {
    rules,
    problems,
    sandbox: {
      enabled: sandbox.enabled ?? true,
      autoAllowBashIfSandboxed: sandbox.autoAllowBashIfSandboxed ?? false,
      excludedCommands: [...new Set(sandbox.excludedCommands)],
      allowedDomains: [...new Set(sandbox.allowedDomains)],
    },
    files,
    untrusted: untrusted.filter((i) => !seen.has(i.key) && seen.add(i.key)),
    policyError,
  };
}

/** The settings with the given widening items taken out (what an untrusted folder keeps). */
function withoutItems(s: ParsedSettings, drop: ReadonlySet<string>): ParsedSettings {
  const keep = (key: string) => !drop.has(key);
  return {
    ...s,
    allow: s.allow.filter((r) => keep(trustKey.allow(r))),
    sandbox: {
      enabled: s.sandbox.enabled === false && !keep(trustKey.sandboxDisabled) ? undefined : s.sandbox.enabled,
      autoAllowBashIfSandboxed:
        s.sandbox.autoAllowBashIfSandboxed === true && !keep(trustKey.autoAllowBash)
          ? undefined
          : s.sandbox.autoAllowBashIfSandboxed,
      excludedCommands: s.sandbox.excludedCommands.filter((c) => keep(trustKey.excludedCommand(c))),
      allowedDomains: s.sandbox.allowedDomains.filter((d) => keep(trustKey.allowedDomain(d))),
    },
  };
}

function editLocal(projectRoot: string, change: (permissions: Record<string, unknown>) => void): void {
  const file = localSettingsFile(projectRoot);
  // A repository can ship this file as a link (to ~/.ssh/id_rsa, to the person's own settings): then
  // nothing is read, copied or written through it.
  let entry: Stats | null = null;
  try {
    entry = lstatSync(file);
  } catch {
    // Absent: it is created below.
  }
  if (entry !== null && !entry.isFile())
    throw new AppError(
      'FORBIDDEN',
      `${file} is not a plain file (a link or something else); Carapace does not write rules through it. Remove it to let "Always allow" create it.`,
    );
  const read = readJsonObject(file);
  // Only a file that is not a JSON object at all is set aside; any other key, valid or not, is kept.
  if (read.kind === 'unreadable') copyFileSync(file, `${file}.invalid-${Date.now()}`);
  const data: Record<string, unknown> = read.kind === 'ok' ? { ...read.value } : {};
  const current = data['permissions'];
  const permissions =
    typeof current === 'object' && current !== null && !Array.isArray(current)
      ? { ...(current as Record<string, unknown>) }
      : {};
  change(permissions);
  data['permissions'] = permissions;
  writeJsonFileAtomic(file, data);
}

/** Adds a rule to `.claude/settings.local.json` (what "Always allow" writes), keeping everything else. */
export function addLocalRule(projectRoot: string, behavior: RuleBehavior, text: string): void {
  // A new rule is refused outright if its pattern cannot be used; only rules already written are
  // kept failing closed.
  if (parseRule(text, 'local', behavior, projectRoot).unusable)
    throw new RuleSyntaxError(text, 'its path pattern cannot be used');
  editLocal(projectRoot, (p) => {
    const list = Array.isArray(p[behavior]) ? (p[behavior] as string[]) : [];
    if (!list.includes(text)) p[behavior] = [...list, text];
  });
}

export function removeLocalRule(projectRoot: string, behavior: RuleBehavior, text: string): void {
  editLocal(projectRoot, (p) => {
    const list = Array.isArray(p[behavior]) ? (p[behavior] as string[]) : [];
    p[behavior] = list.filter((r) => r !== text);
  });
}
