import path from 'node:path';
import { HookRunner } from '../harness/hooks/dispatch';
import { parseHooksBlock } from '../harness/hooks/schema';
import { loadPluginComponents } from '../harness/plugins/load-plugins';
import { collectHooks, HOOK_SOURCES, type ConfiguredHook, type HookSource } from '../harness/hooks/sources';
import { readJsonObject } from '../harness/permissions/settings-file';
import { settingsFiles, type SourceLocations } from '../harness/permissions/settings-sources';
import { trustKey } from '../harness/permissions/trust';

/**
 * The hooks an app session runs: the user's and the managed policy's always; the project's own files'
 * (`.claude/settings.json`, `.claude/settings.local.json`, which a repository can ship) only those the
 * workspace trust has accepted, item by item, as the permission settings are. Read afresh each call:
 * trust given (or revoked) during a session applies from the next hook event on.
 */
export function appHooks(loc: SourceLocations): { hooks: ConfiguredHook[]; problems: string[] } {
  // The enabled plugins' hooks run as the user's do: installing a plugin was the person's choice.
  const base = collectHooks({
    locations: loc,
    projectHooksAllowed: false,
    // The project's enabledPlugins count as far as its trust accepted them (enabled-state.ts).
    plugins: loadPluginComponents(loc),
  });
  // disableAllHooks / allowManagedHooksOnly leave none of the project's hooks.
  if (base.narrowedBy !== null) return base;
  const accepted = loc.trust?.accepted(loc.projectRoot) ?? new Set<string>();
  const problems = [...base.problems];
  const fromProject: ConfiguredHook[] = [];
  if (accepted.size > 0)
    for (const f of settingsFiles(loc)) {
      if ((f.source !== 'local' && f.source !== 'project') || !f.exists) continue;
      const read = readJsonObject(f.path);
      if (read.kind !== 'ok') continue; // collectHooks has already reported it
      // The same reader as every other hook's, keeping only the handlers the folder's trust accepted
      // (keyed as the trust prompt keys them: event, matcher and the handler as written).
      const { entries, errors } = parseHooksBlock(read.value['hooks'], (event, matcher, h) =>
        accepted.has(trustKey.hook(event, matcher, h)),
      );
      const shown = path.relative(loc.projectRoot, f.path);
      for (const e of errors) problems.push(`${shown}: ${e.message}; it is ignored`);
      for (const e of entries) fromProject.push({ ...e, source: f.source, file: f.path });
    }
  const rank = (s: HookSource) => HOOK_SOURCES.indexOf(s);
  const hooks = [...base.hooks, ...fromProject].sort((a, b) => rank(a.source) - rank(b.source));
  return { hooks, problems };
}

export interface SessionHookOptions {
  sessionId: string;
  transcriptFile: string;
  projectRoot: string;
  locations: () => SourceLocations;
  permissionMode: () => string;
  env: NodeJS.ProcessEnv;
  home: string;
  /** Told once of each problem with the hooks' settings (a broken entry, an unusable matcher). */
  onProblem: (problem: string) => void;
  /**
   * Why the session's folder is no place to run anything now (its worktree is gone or replaced,
   * workspace/worktree-check.ts), else null: then no hook runs, since each would start there.
   */
  gone?: (() => string | null) | undefined;
}

/** A session's hook runner in the app (see appHooks for which hooks it runs). */
export function sessionHookRunner(o: SessionHookOptions): HookRunner {
  const told = new Set<string>();
  const tell = (problem: string) => {
    if (told.has(problem)) return;
    told.add(problem);
    o.onProblem(problem);
  };
  return new HookRunner({
    hooks: () => {
      const { hooks, problems } = appHooks(o.locations());
      const gone = o.gone?.() ?? null;
      if (gone !== null) {
        // Said only to someone who has hooks: the composer already says why nothing runs.
        if (hooks.length > 0) tell(`none run: ${gone}`);
        return [];
      }
      for (const p of problems) tell(p);
      return hooks;
    },
    sessionId: o.sessionId,
    transcriptPath: o.transcriptFile,
    projectDir: o.projectRoot,
    cwd: () => o.projectRoot,
    permissionMode: o.permissionMode,
    env: o.env,
    home: o.home,
    onProblem: tell,
  });
}
