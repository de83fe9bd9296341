import path from 'node:path';
import type { HookListEntry, HookSourceName, HooksView } from '@shared/ipc/contract/hooks';
import { DEFAULT_TIMEOUT_S, parseHooksBlock, type HookEntry } from '../harness/hooks/schema';
import { collectHooks } from '../harness/hooks/sources';
import { loadPluginComponents } from '../harness/plugins/load-plugins';
import { readJsonObject } from '../harness/permissions/settings-file';
import { settingsFiles, type SourceLocations } from '../harness/permissions/settings-sources';
import { appHooks } from '../workspace/session-hooks';
import type { HandlerMap } from './router';
import type { Services } from './services';

const HOOK_SOURCES: readonly HookSourceName[] = ['policy', 'local', 'project', 'user'];
const isHookSource = (s: string): s is HookSourceName => (HOOK_SOURCES as readonly string[]).includes(s);

/** The same hook in the list read here and in the set an app session runs (appHooks). */
const keyOf = (source: string, e: HookEntry) => JSON.stringify([source, e.event, e.matcher, e.handler]);

function target(e: HookEntry): string {
  switch (e.handler.type) {
    case 'command':
      return e.handler.command;
    case 'http':
      return e.handler.url;
    default:
      return e.handler.prompt;
  }
}

/**
 * Every hook written in the project's settings sources and the enabled plugins, whether it runs or
 * not: the harness's collectHooks leaves out what does not run, and Settings must show that too (an
 * untrusted project's hooks, every hook under `disableAllHooks`). The files are read with the
 * runner's own reader (parseHooksBlock), so an entry it cannot use is listed as a problem, never as a
 * hook; whether one runs is decided by the app's own rule (appHooks: the user's, the policy's and
 * the plugins', the project's only as the workspace trust accepted them), not worked out again here.
 */
export function hooksView(loc: SourceLocations, projectId: string): HooksView {
  const running = new Set(appHooks(loc).hooks.map((h) => keyOf(h.source, h)));
  const { narrowedBy } = collectHooks({ locations: loc, projectHooksAllowed: false });
  const shown = (file: string, source: HookSourceName) =>
    source === 'local' || source === 'project' ? path.relative(loc.projectRoot, file) : file;
  const files: HooksView['files'] = [];
  const entry = (
    source: HookSourceName,
    file: string,
    e: HookEntry,
    runs: boolean,
    whyNot: string | null,
  ) => ({
    source,
    plugin: null,
    file,
    event: e.event,
    matcher: e.matcher,
    if: e.handler.if ?? null,
    type: e.handler.type,
    target: target(e),
    timeoutS: e.handler.timeout ?? DEFAULT_TIMEOUT_S[e.handler.type],
    timeoutDefault: e.handler.timeout === undefined,
    async: e.handler.type === 'command' && e.handler.async === true,
    runs,
    whyNot,
  });
  const hooks: HookListEntry[] = [];
  const problems: HooksView['problems'] = [];
  for (const f of settingsFiles(loc)) {
    if (!isHookSource(f.source)) continue;
    const source = f.source;
    files.push({ source, path: f.path, exists: f.exists });
    if (!f.exists) continue;
    const read = readJsonObject(f.path);
    if (read.kind === 'unreadable') {
      problems.push({ file: f.path, message: `${read.problem}; its hooks are ignored` });
      continue;
    }
    if (read.kind !== 'ok') continue;
    const { entries, errors } = parseHooksBlock(read.value['hooks']);
    for (const e of errors) problems.push({ file: f.path, message: `${e.message}; it is ignored` });
    for (const e of entries) {
      const runs = running.has(keyOf(source, e));
      const whyNot = runs
        ? null
        : narrowedBy !== null
          ? `Off: ${narrowedBy}`
          : source === 'local' || source === 'project'
            ? `Not accepted: ${shown(f.path, source)} is the project's own file, and its hooks run in the app only once you trust them (Review this project's settings)`
            : 'Off';
      hooks.push(entry(source, f.path, e, runs, whyNot));
    }
  }
  // The enabled plugins' hooks, as the app loads them (their command with the plugin's folders put in).
  const plugins = loadPluginComponents(loc);
  for (const p of plugins.problems)
    if (/hooks/i.test(p.message) || path.basename(p.file) === 'hooks.json')
      problems.push({ file: p.file, message: p.message });
  for (const h of plugins.hooks) {
    const runs = running.has(keyOf('plugin', h));
    const whyNot = runs ? null : narrowedBy !== null ? `Off: ${narrowedBy}` : 'Off';
    hooks.push({ ...entry('plugin', h.file, h, runs, whyNot), plugin: h.plugin ?? null });
  }
  return { projectId, projectRoot: loc.projectRoot, files, hooks, problems, narrowedBy };
}

/** Settings' Hooks section: read-only, for the open project (by id, never a path sent in). */
export function hooksHandlers(s: Services): Pick<HandlerMap, 'hooks.list'> {
  return {
    'hooks.list': ({ projectId }) => {
      const root = s.workspace.snapshot(projectId).project.path;
      return hooksView(s.permissionLocations(root), projectId);
    },
  };
}
