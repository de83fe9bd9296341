import { useEffect, useRef, useState } from 'react';
import type {
  AgentFileEntry,
  AgentFileRef,
  AgentFilesView,
  AgentSource,
} from '@shared/ipc/contract/agent-files';
import { getClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { AgentEditor } from './AgentEditor';
import { NewAgentForm } from './NewAgentForm';
import { loadLatest, problemText } from './page-load';
import './agents.css';

/** Groups in precedence order: a project's file wins over the person's, which wins over a built-in. */
const GROUPS: { source: AgentSource; title: string }[] = [
  { source: 'project', title: 'Project' },
  { source: 'user', title: 'User' },
  { source: 'plugin', title: 'Plugins' },
  { source: 'built-in', title: 'Built-in' },
];

const refKey = (ref: AgentFileRef) => `${ref.folder}:${ref.path}`;

/**
 * Settings → Agents (and `/agents`): the sub-agents the open project's sessions can start, grouped
 * by where they come from, with the ones another definition overrides marked and the files that do
 * not load shown with why. Project and user files are created, edited (raw Markdown, checked by
 * the sessions' own parser before it is written) and deleted here; built-in and plugin agents are
 * read-only.
 */
export function AgentsPage() {
  const projectId = useStore((s) => s.project?.id ?? null);
  const [view, setView] = useState<AgentFilesView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  // When the form closes (created or cancelled), focus goes back to the button that opened it.
  const wasCreating = useRef(false);
  useEffect(() => {
    if (wasCreating.current && !creating) newButton.current?.focus();
    wasCreating.current = creating;
  }, [creating]);
  const focusHomeAfterUpdate = useRef(false);
  useEffect(() => {
    if (!focusHomeAfterUpdate.current) return;
    focusHomeAfterUpdate.current = false;
    newButton.current?.focus();
  }, [view]);
  useEffect(() => {
    if (projectId === null) return;
    return loadLatest(getClient().invoke('agentFiles.list', { projectId }), setView, setError);
  }, [projectId]);

  if (projectId === null)
    return (
      <section aria-label="Agents" className="agents-page">
        <h3>Agents</h3>
        <p className="muted">Open a project to see the agents its sessions can start.</p>
      </section>
    );

  /**
   * Runs one change; its answer replaces the list, its failure is shown above it. `focusHome` moves
   * focus to New agent once the list is drawn (the row that had it is gone after a delete).
   */
  const act = async (
    run: () => Promise<AgentFilesView>,
    o: { focusHome?: boolean } = {},
  ): Promise<boolean> => {
    try {
      const next = await run();
      focusHomeAfterUpdate.current = o.focusHome === true;
      setView(next);
      setError(null);
      return true;
    } catch (e) {
      setError(problemText(e));
      return false;
    }
  };
  const edit = (ref: AgentFileRef | null) => {
    setEditing(ref === null ? null : refKey(ref));
    setNote(null);
  };
  const rowProps = { projectId, act, edit, editing, onSaved: setNote };

  return (
    <section aria-label="Agents" className="agents-page">
      <h3>Agents</h3>
      <p className="muted">
        Sub-agents a session can start with the Agent tool: Markdown files with <code>name</code> and{' '}
        <code>description</code> frontmatter, the body being the agent&apos;s prompt. A project&apos;s file
        overrides the user&apos;s of the same name, and either overrides a built-in.
      </p>
      {error ? (
        <p role="alert" className="error-text agents-error">
          {error}
        </p>
      ) : null}
      <p role="status" className="agents-note">
        {note}
      </p>
      {creating ? (
        <NewAgentForm
          view={view}
          onCancel={() => setCreating(false)}
          onCreate={async (input) => {
            try {
              const { view: next } = await getClient().invoke('agentFiles.create', { projectId, ...input });
              setView(next);
              setError(null);
              setCreating(false);
              setNote(`Created ${input.name}.`);
              return null;
            } catch (e) {
              return problemText(e);
            }
          }}
        />
      ) : (
        <button ref={newButton} type="button" onClick={() => setCreating(true)}>
          New agent…
        </button>
      )}
      {view === null && !error ? <p className="muted">Loading…</p> : null}
      {view && view.problems.length > 0 ? (
        <section aria-label="Agent files not loaded" className="agents-problems">
          <h4>Not loaded</h4>
          <ul>
            {view.problems.map((p) => (
              <li key={`${p.file}\n${p.message}`} className="agents-problem">
                <p className="agents-problem-text">
                  <span aria-hidden="true">⚠ </span>
                  <code>{p.file}</code>: {p.message}
                </p>
                {p.ref ? <FileActions fileRef={p.ref} label={p.file} {...rowProps} /> : null}
                {p.ref && editing === refKey(p.ref) ? <EditorFor fileRef={p.ref} {...rowProps} /> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {view
        ? GROUPS.map((g) => {
            const agents = view.agents.filter((a) => a.source === g.source);
            if (agents.length === 0 && g.source !== 'project') return null;
            return (
              <section key={g.source} aria-label={`${g.title} agents`} className="agents-group">
                <h4>
                  {g.title}
                  {g.source === 'project' ? <span className="muted"> {view.folders.project}</span> : null}
                </h4>
                {agents.length === 0 ? <p className="muted">No agent files in this project.</p> : null}
                <ul className="agents-list">
                  {agents.map((a) => (
                    <AgentRow key={`${a.source}:${a.file ?? a.name}`} agent={a} {...rowProps} />
                  ))}
                </ul>
              </section>
            );
          })
        : null}
    </section>
  );
}

interface RowProps {
  projectId: string;
  act: (run: () => Promise<AgentFilesView>, o?: { focusHome?: boolean }) => Promise<boolean>;
  edit: (ref: AgentFileRef | null) => void;
  editing: string | null;
  onSaved: (note: string) => void;
}

function AgentRow({ agent: a, ...p }: { agent: AgentFileEntry } & RowProps) {
  const tools = a.tools === null ? 'all tools' : a.tools.length === 0 ? 'no tools' : a.tools.join(', ');
  return (
    <li className={`agentdef-row${a.active ? '' : ' overridden'}`} aria-label={`Agent ${a.name}`}>
      <div className="agentdef-head">
        {a.color ? (
          <span className="agentdef-color" aria-hidden="true" style={{ background: cssColor(a.color) }} />
        ) : null}
        <strong className="agentdef-name">{a.name}</strong>
        <span className="muted agentdef-model">model: {a.model}</span>
        {a.active ? null : (
          <span className="agentdef-overridden">
            overridden
            {a.overriddenBy ? ` by ${a.overriddenBy === 'built-in' ? 'the built-in' : a.overriddenBy}` : ''}
          </span>
        )}
        {a.ref ? <FileActions fileRef={a.ref} label={a.name} {...p} /> : null}
      </div>
      <p className="agentdef-description">{a.description}</p>
      <p className="muted agentdef-meta">
        Tools: {tools}
        {a.disallowedTools.length > 0 ? ` (never: ${a.disallowedTools.join(', ')})` : ''}
      </p>
      {a.file ? <p className="muted agentdef-file">{a.file}</p> : null}
      {a.ref && p.editing === refKey(a.ref) ? <EditorFor fileRef={a.ref} {...p} /> : null}
    </li>
  );
}

/** Edit and Delete (with a confirming second button) for one file. */
function FileActions({ fileRef, label, ...p }: { fileRef: AgentFileRef; label: string } & RowProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const open = p.editing === refKey(fileRef);
  // When the editor closes (saved or cancelled), focus goes back to its Edit button.
  const editButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) editButton.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <span className="agentdef-actions">
      <button
        ref={editButton}
        type="button"
        aria-expanded={open}
        aria-label={`Edit ${label}`}
        onClick={() => p.edit(open ? null : fileRef)}
      >
        Edit
      </button>
      {confirming ? (
        <>
          <button
            type="button"
            className="danger"
            disabled={busy}
            // The confirming button takes focus, so Enter right after "Delete…" confirms.
            autoFocus
            onClick={() => {
              setBusy(true);
              void p
                .act(
                  () => getClient().invoke('agentFiles.delete', { projectId: p.projectId, ref: fileRef }),
                  {
                    focusHome: true,
                  },
                )
                .then((ok) => {
                  if (ok) p.onSaved(`Deleted ${fileRef.path}.`);
                })
                .finally(() => setBusy(false));
            }}
          >
            Delete {fileRef.path}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </>
      ) : (
        <button type="button" aria-label={`Delete ${label}…`} onClick={() => setConfirming(true)}>
          Delete…
        </button>
      )}
    </span>
  );
}

function EditorFor({ fileRef, ...p }: { fileRef: AgentFileRef } & RowProps) {
  return (
    <AgentEditor
      projectId={p.projectId}
      fileRef={fileRef}
      onClose={() => p.edit(null)}
      onSaved={(view) => {
        void p.act(() => Promise.resolve(view));
        p.edit(null);
        p.onSaved(`Saved ${fileRef.path}.`);
      }}
    />
  );
}

/** A colour name Claude Code uses, or anything CSS accepts; an unknown word draws nothing. */
function cssColor(color: string): string {
  return /^[a-z]+$|^#[0-9a-f]{3,8}$/i.test(color) ? color : 'transparent';
}
