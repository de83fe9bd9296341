import { useEffect, useState } from 'react';
import type { HookListEntry, HookSourceName, HooksView } from '@shared/ipc/contract/hooks';
import { IpcRequestError } from '@shared/domain/errors';
import { getClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import './hooks-section.css';

const SOURCES: { source: Exclude<HookSourceName, 'plugin'>; label: string; about: string }[] = [
  { source: 'policy', label: 'Managed policy', about: 'set by your organisation; always runs' },
  { source: 'local', label: 'Local project settings', about: 'this folder, not committed' },
  { source: 'project', label: 'Project settings', about: 'this folder, shipped with the repository' },
  { source: 'user', label: 'User settings', about: 'yours, for every project' },
];

const TYPE_LABEL: Record<HookListEntry['type'], string> = {
  command: 'command',
  http: 'HTTP',
  prompt: 'prompt',
  agent: 'agent',
};

/** Groups a list by a key, keeping first-seen order. */
function groupBy<T>(items: readonly T[], key: (t: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups];
}

function HookRow({ hook }: { hook: HookListEntry }) {
  return (
    <li className={`hook-row ${hook.runs ? 'hook-runs' : 'hook-off'}`}>
      <div className="hook-target">
        <span className="hook-type">{TYPE_LABEL[hook.type]}</span>
        <code>{hook.target}</code>
      </div>
      <dl className="hook-meta">
        <dt>Matcher</dt>
        <dd>{hook.matcher === '' ? <span className="muted">every</span> : <code>{hook.matcher}</code>}</dd>
        {hook.if !== null ? (
          <>
            <dt>If</dt>
            <dd>
              <code>{hook.if}</code>
            </dd>
          </>
        ) : null}
        <dt>Timeout</dt>
        <dd>
          {hook.timeoutS} s{hook.timeoutDefault ? <span className="muted"> (default)</span> : null}
        </dd>
        {hook.async ? (
          <>
            <dt>Async</dt>
            <dd>yes: started, not waited for</dd>
          </>
        ) : null}
      </dl>
      <p className="hook-state">
        {hook.runs ? (
          <span className="hook-state-on">
            <span aria-hidden="true">● </span>Runs
          </span>
        ) : (
          <span className="hook-state-off">
            <span aria-hidden="true">○ </span>Does not run. {hook.whyNot}
          </span>
        )}
      </p>
    </li>
  );
}

/** One event's hooks under its heading. */
function EventGroups({ hooks }: { hooks: readonly HookListEntry[] }) {
  return groupBy(hooks, (h) => h.event).map(([event, rows]) => (
    <div key={event} className="hook-event">
      <h5>{event}</h5>
      <ul>
        {rows.map((h, i) => (
          <HookRow key={i} hook={h} />
        ))}
      </ul>
    </div>
  ));
}

/**
 * The enabled plugins' hooks, one group a plugin ("Plugin tools"), under the file each is written in
 * (`hooks/hooks.json` or the plugin's manifest). They come after the user's, as they run.
 */
function PluginHooks({ hooks }: { hooks: readonly HookListEntry[] }) {
  return groupBy(
    hooks.filter((h) => h.source === 'plugin'),
    (h) => h.plugin ?? '',
  ).map(([name, rows]) => (
    <div key={name} className="hook-source" role="group" aria-label={`Plugin ${name}`}>
      <h4>
        Plugin {name}{' '}
        <span className="muted">— an installed plugin you enabled; runs without the project’s trust</span>
      </h4>
      {groupBy(rows, (h) => h.file).map(([file, inFile]) => (
        <div key={file}>
          <p className="hook-file">
            <code>{file}</code>
          </p>
          <EventGroups hooks={inFile} />
        </div>
      ))}
    </div>
  ));
}

/** The list itself, from a view (HooksSection fetches it; tests render this directly). */
export function HooksList({ view }: { view: HooksView }) {
  return (
    <>
      {view.narrowedBy !== null ? (
        <p role="alert" className="hooks-banner">
          <span aria-hidden="true">⚠ </span>
          <strong>Hooks are narrowed:</strong> {view.narrowedBy}.{' '}
          {view.narrowedBy === 'disableAllHooks in the managed policy'
            ? 'No hook runs.'
            : 'Only the managed policy’s hooks run.'}
        </p>
      ) : null}
      {view.problems.length > 0 ? (
        <div className="hooks-problems" role="group" aria-label="Hook problems">
          {view.problems.map((p) => (
            <p key={`${p.file}\n${p.message}`} className="hooks-problem">
              <span aria-hidden="true">✕ </span>
              <strong>Error</strong> in <code>{p.file}</code>: {p.message}
            </p>
          ))}
        </div>
      ) : null}
      {view.hooks.length === 0 ? (
        <p className="muted">
          No hooks configured. Add them under <code>&quot;hooks&quot;</code> in one of the files below.
        </p>
      ) : null}
      {SOURCES.map(({ source, label, about }) => {
        const file = view.files.find((f) => f.source === source);
        const hooks = view.hooks.filter((h) => h.source === source);
        if (!file) return null;
        return (
          <div key={source} className="hook-source" role="group" aria-label={label}>
            <h4>
              {label} <span className="muted">— {about}</span>
            </h4>
            <p className="hook-file">
              <code>{file.path}</code>{' '}
              <span className="muted">
                {file.exists ? (hooks.length === 0 ? '(no hooks)' : '') : '(no such file)'}
              </span>
            </p>
            <EventGroups hooks={hooks} />
          </div>
        );
      })}
      <PluginHooks hooks={view.hooks} />
    </>
  );
}

/**
 * Settings' Hooks section: every hook the open project's settings sources define, by source and event,
 * and whether it runs. Read-only: each group names the file to edit.
 */
export function HooksSection() {
  const projectId = useStore((s) => s.project?.id ?? null);
  const [view, setView] = useState<HooksView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (projectId === null) return;
    let live = true;
    getClient()
      .invoke('hooks.list', { projectId })
      .then(
        (v) => live && setView(v),
        (e: unknown) =>
          live && setError(e instanceof IpcRequestError || e instanceof Error ? e.message : String(e)),
      );
    return () => {
      live = false;
    };
  }, [projectId]);
  if (projectId === null) return null;
  return (
    <section aria-label="Hooks" className="hooks-section">
      <h3>Hooks</h3>
      <p className="muted">
        Commands and requests that run at points of a session (before a tool, after an edit, when a turn
        ends…). A project&apos;s own files run hooks in the app only once you trust them; in{' '}
        <code>carapace -p</code> they always run. To change a hook, edit the file it is listed under.
      </p>
      {error !== null ? (
        <p role="alert" className="error-text">
          Could not read the hooks: {error}
        </p>
      ) : view === null ? (
        <p className="muted">Reading the hooks…</p>
      ) : (
        <HooksList view={view} />
      )}
    </section>
  );
}
