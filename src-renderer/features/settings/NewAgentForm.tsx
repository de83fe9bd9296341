import { useState } from 'react';
import type { AgentFilesView, AgentModelChoice, NewAgentInput } from '@shared/ipc/contract/agent-files';

const MODELS: AgentModelChoice[] = ['inherit', 'sonnet', 'opus', 'haiku'];

/** `Read, Grep, Bash(git log *)` as a list; commas inside parentheses stay with their entry. */
export function splitTools(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  out.push(current.trim());
  return out.filter((t) => t !== '');
}

/**
 * The New agent form: name, description, tools, model, where (the project's `.claude/agents` or the
 * person's folder) and the prompt. The main process checks the name and parses the file it would
 * write; its refusal is shown here and everything typed stays.
 */
export function NewAgentForm({
  view,
  onCancel,
  onCreate,
}: {
  view: AgentFilesView | null;
  onCancel: () => void;
  /** Resolves to the refusal's words, or null when the file was written. */
  onCreate: (input: Omit<NewAgentInput, 'projectId'>) => Promise<string | null>;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tools, setTools] = useState('');
  const [model, setModel] = useState<AgentModelChoice>('inherit');
  const [scope, setScope] = useState<'project' | 'user'>('project');
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const folder = view ? (scope === 'project' ? view.folders.project : view.folders.user) : null;

  return (
    <form
      className="new-agent"
      aria-label="New agent"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void onCreate({ name: name.trim(), description, tools: splitTools(tools), model, scope, prompt })
          .then(setError)
          .finally(() => setBusy(false));
      }}
      onKeyDown={(e) => {
        // Escape leaves the form (keeping Settings open) rather than closing the dialog.
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <h4>New agent</h4>
      <div className="new-agent-grid">
        <label htmlFor="new-agent-name">Name</label>
        <input
          id="new-agent-name"
          value={name}
          autoFocus
          required
          spellCheck={false}
          autoComplete="off"
          placeholder="code-reviewer"
          onChange={(e) => setName(e.target.value)}
        />
        <label htmlFor="new-agent-description">Description</label>
        <input
          id="new-agent-description"
          value={description}
          required
          placeholder="When to use it: shown to the model"
          onChange={(e) => setDescription(e.target.value)}
        />
        <label htmlFor="new-agent-tools">Tools</label>
        <input
          id="new-agent-tools"
          value={tools}
          spellCheck={false}
          autoComplete="off"
          placeholder="Read, Grep, Glob (empty: all tools)"
          onChange={(e) => setTools(e.target.value)}
        />
        <label htmlFor="new-agent-model">Model</label>
        <select
          id="new-agent-model"
          value={model}
          onChange={(e) => setModel(e.target.value as AgentModelChoice)}
        >
          {MODELS.map((m) => (
            <option key={m} value={m}>
              {m === 'inherit' ? 'inherit (the session’s model)' : m}
            </option>
          ))}
        </select>
        <span id="new-agent-scope-label">Save in</span>
        <div role="radiogroup" aria-labelledby="new-agent-scope-label" className="new-agent-scope">
          {(['project', 'user'] as const).map((s) => (
            <label key={s}>
              <input
                type="radio"
                name="new-agent-scope"
                value={s}
                checked={scope === s}
                onChange={() => setScope(s)}
              />
              {s === 'project' ? 'This project' : 'All my projects'}
            </label>
          ))}
        </div>
        {folder ? <p className="muted new-agent-folder">{folder}</p> : null}
        <label htmlFor="new-agent-prompt">Prompt</label>
        <textarea
          id="new-agent-prompt"
          value={prompt}
          required
          rows={6}
          placeholder="You are … (the agent's whole system prompt)"
          onChange={(e) => setPrompt(e.target.value)}
        />
      </div>
      {error ? (
        <p role="alert" className="error-text">
          {error}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
