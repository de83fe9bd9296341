import path from 'node:path';
import { readJsonObject } from '../permissions/settings-file';
import { settingsFiles, type SourceLocations } from '../permissions/settings-sources';
import { parseHooksBlock, type HookEntry } from './schema';

/** Where a hook was configured, highest precedence first. */
export const HOOK_SOURCES = ['policy', 'local', 'project', 'user', 'plugin'] as const;
export type HookSource = (typeof HOOK_SOURCES)[number];

export interface ConfiguredHook extends HookEntry {
  source: HookSource;
  /** The settings file it is written in. */
  file: string;
  /** For source `plugin`: the plugin's name. */
  plugin?: string;
}

export interface CollectedHooks {
  hooks: ConfiguredHook[];
  /** Files and entries that could not be used, in words; the rest still applies. */
  problems: string[];
  /** Why hooks are off or narrowed (disableAllHooks, allowManagedHooksOnly), or null. */
  narrowedBy: string | null;
}

export interface HookSourceOptions {
  locations: Pick<SourceLocations, 'home' | 'projectRoot' | 'policyFile'>;
  /**
   * Whether the project's own files (`.claude/settings.json`, `.claude/settings.local.json`, which a
   * repository can ship) may contribute hooks: in `-p` always, as in Claude Code (running it in a
   * folder is the person's choice); in the app, once the workspace is trusted.
   */
  projectHooksAllowed: boolean;
  /** The enabled plugins' hooks (plugins/load-plugins.ts), below the user's; off with the rest. */
  plugins?: { hooks: ConfiguredHook[] };
}

/**
 * Every hook of the settings sources, policy > local > project > user. `disableAllHooks` turns off
 * every hook but the managed policy's (and the policy's too when the policy sets it);
 * `allowManagedHooksOnly` in the policy keeps only the policy's. In the project's own files
 * (`.claude/settings*.json`, which a repository ships) `disableAllHooks` turns off only the project's
 * hooks: the person's hooks may be their guards (a PreToolUse check, an audit log), and switching
 * those off would widen what the agent does unseen, so a repository cannot.
 */
export function collectHooks(o: HookSourceOptions): CollectedHooks {
  const problems: string[] = [];
  const read = new Map<HookSource, { file: string; data: Record<string, unknown> }>();
  for (const f of settingsFiles(o.locations)) {
    if (f.source === 'cli' || f.source === 'session' || !f.exists) continue;
    const r = readJsonObject(f.path);
    if (r.kind === 'unreadable') problems.push(`${r.problem}; its hooks are ignored`);
    if (r.kind === 'ok') read.set(f.source, { file: f.path, data: r.value });
  }
  const flag = (source: HookSource, key: string) => read.get(source)?.data[key] === true;
  let narrowedBy: string | null = null;
  let allowed: ReadonlySet<HookSource> = new Set(HOOK_SOURCES);
  if (flag('policy', 'disableAllHooks')) {
    allowed = new Set();
    narrowedBy = 'disableAllHooks in the managed policy';
  } else if (flag('policy', 'allowManagedHooksOnly')) {
    allowed = new Set(['policy']);
    narrowedBy = 'allowManagedHooksOnly in the managed policy';
  } else {
    const projectDisabler = (['local', 'project'] as const).find((s) => flag(s, 'disableAllHooks'));
    if (flag('user', 'disableAllHooks')) {
      allowed = new Set(['policy']);
      narrowedBy = `disableAllHooks in ${read.get('user')?.file ?? 'user'}`;
    } else if (projectDisabler) {
      allowed = new Set(HOOK_SOURCES.filter((s) => s !== 'project' && s !== 'local'));
      narrowedBy = `disableAllHooks in ${read.get(projectDisabler)?.file ?? projectDisabler} (the project's own hooks)`;
    }
  }
  const hooks: ConfiguredHook[] = [];
  for (const source of HOOK_SOURCES) {
    const entry = read.get(source);
    if (!entry || !allowed.has(source)) continue;
    if ((source === 'project' || source === 'local') && !o.projectHooksAllowed) continue;
    const { entries, errors } = parseHooksBlock(entry.data['hooks']);
    const shown =
      source === 'user' || source === 'policy'
        ? entry.file
        : path.relative(o.locations.projectRoot, entry.file);
    for (const e of errors) problems.push(`${shown}: ${e.message}; it is ignored`);
    for (const e of entries) hooks.push({ ...e, source, file: entry.file });
  }
  if (allowed.has('plugin')) hooks.push(...(o.plugins?.hooks ?? []));
  return { hooks, problems, narrowedBy };
}
