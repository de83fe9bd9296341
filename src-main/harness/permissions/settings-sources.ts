import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PermissionMode } from '@shared/domain/permissions';
import { readJsonFile, writeJsonFileAtomic } from '../../platform/json-file';
import { parseRule, RuleSyntaxError, type PermissionRule, type RuleBehavior, type RuleSource } from './rule';

const Rules = z.array(z.string()).optional();
const PermissionsBlock = z.looseObject({
  allow: Rules,
  deny: Rules,
  ask: Rules,
  defaultMode: PermissionMode.optional(),
});
const SandboxBlock = z.looseObject({
  enabled: z.boolean().optional(),
  autoAllowBashIfSandboxed: z.boolean().optional(),
  excludedCommands: z.array(z.string()).optional(),
  network: z.looseObject({ allowedDomains: z.array(z.string()).optional() }).optional(),
});
/** The parts of a Claude Code settings file the permission system reads; everything else is kept as is. */
export const PermissionSettingsFile = z.looseObject({
  permissions: PermissionsBlock.optional(),
  sandbox: SandboxBlock.optional(),
});

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
  /** Files or rules that could not be used, in words; the rest still applies. */
  problems: string[];
  defaultMode: PermissionMode | null;
  sandbox: SandboxSettings;
  files: SettingsFileInfo[];
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

/**
 * Reads every permission source, highest precedence first: managed policy, command line, local,
 * project, user, session. Lists merge across sources; for a single value (the default mode, a
 * sandbox switch) the highest source that sets it wins. A broken file or rule is reported and skipped.
 */
export function loadPermissionSources(loc: SourceLocations): PermissionSources {
  const rules: PermissionRule[] = [];
  const problems: string[] = [];
  let defaultMode: PermissionMode | null = loc.cli?.permissionMode ?? null;
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
        rules.push(parseRule(text, source, behavior, base));
      } catch (error) {
        problems.push(error instanceof RuleSyntaxError ? error.message : String(error));
      }
    }
  };
  const files = settingsFiles(loc);
  const bySource = new Map(files.map((f) => [f.source, f]));
  const fromFile = (source: RuleSource) => {
    const f = bySource.get(source);
    if (!f?.exists) return;
    const read = readJsonFile(f.path, PermissionSettingsFile);
    if (read.kind === 'invalid') {
      problems.push(`${read.problem}; its rules are ignored`);
      return;
    }
    if (read.kind !== 'ok') return;
    const base = source === 'user' ? loc.home : source === 'policy' ? path.dirname(f.path) : loc.projectRoot;
    const p = read.value.permissions;
    add(p?.deny, source, 'deny', base);
    add(p?.ask, source, 'ask', base);
    add(p?.allow, source, 'allow', base);
    defaultMode ??= p?.defaultMode ?? null;
    const s = read.value.sandbox;
    sandbox.enabled ??= s?.enabled;
    sandbox.autoAllowBashIfSandboxed ??= s?.autoAllowBashIfSandboxed;
    sandbox.excludedCommands.push(...(s?.excludedCommands ?? []));
    sandbox.allowedDomains.push(...(s?.network?.allowedDomains ?? []));
  };
  fromFile('policy');
  add(loc.cli?.disallowedTools, 'cli', 'deny', loc.projectRoot);
  add(loc.cli?.allowedTools, 'cli', 'allow', loc.projectRoot);
  fromFile('local');
  fromFile('project');
  fromFile('user');
  rules.push(...(loc.session ?? []));
  return {
    rules,
    problems,
    defaultMode,
    sandbox: {
      enabled: sandbox.enabled ?? true,
      autoAllowBashIfSandboxed: sandbox.autoAllowBashIfSandboxed ?? false,
      excludedCommands: [...new Set(sandbox.excludedCommands)],
      allowedDomains: [...new Set(sandbox.allowedDomains)],
    },
    files,
  };
}

function editLocal(projectRoot: string, change: (permissions: Record<string, unknown>) => void): void {
  const file = localSettingsFile(projectRoot);
  const read = readJsonFile(file, PermissionSettingsFile);
  if (read.kind === 'invalid') copyFileSync(file, `${file}.invalid-${Date.now()}`);
  const data: Record<string, unknown> = read.kind === 'ok' ? { ...read.value } : {};
  const permissions = { ...((data['permissions'] as Record<string, unknown> | undefined) ?? {}) };
  change(permissions);
  data['permissions'] = permissions;
  writeJsonFileAtomic(file, data);
}

/** Adds a rule to `.claude/settings.local.json` (what "Always allow" writes), keeping everything else. */
export function addLocalRule(projectRoot: string, behavior: RuleBehavior, text: string): void {
  parseRule(text, 'local', behavior, projectRoot);
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
