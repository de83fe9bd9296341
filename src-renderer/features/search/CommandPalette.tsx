import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { SearchAnswer, SearchQuery } from '@shared/ipc/contract/search';
import { IpcRequestError } from '@shared/domain/errors';
import { Dialog } from '../../components/Dialog';
import { openSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { paletteCommands } from './commands';
import { openHit } from './open-hit';
import { MIN_SEARCH, paletteEntries, parseInput, type PaletteEntry } from './palette-entries';
import { setPaletteOpen, usePalette } from './palette-store';
import { searchApi } from './search-api';
import { Snippet } from './Snippet';
import './palette.css';

/** Wait after a key before searching, so typing a word makes one request, not one per letter. */
const SEARCH_DELAY_MS = 120;

export function CommandPalette() {
  const open = usePalette((s) => s.open);
  const hasProject = useStore((s) => s.project !== null);
  return open && hasProject ? <PaletteDialog /> : null;
}

interface Filters {
  scope: 'project' | 'all';
  from: string;
  to: string;
  model: string;
  errorsOnly: boolean;
}

const NO_HITS: SearchAnswer['hits'] = [];

const NO_FILTERS: Filters = { scope: 'project', from: '', to: '', model: '', errorsOnly: false };

/** A date field's day as local midnight (or the last millisecond of it). */
function dayMs(day: string, end: boolean): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const t = new Date(`${day}T00:00:00`).getTime();
  if (Number.isNaN(t)) return undefined;
  return end ? t + 86_400_000 - 1 : t;
}

const KIND_LABEL = {
  user: 'You',
  assistant: 'Reply',
  tool_call: 'Tool call',
  tool_result: 'Tool result',
  notice: 'Error',
} as const;

function PaletteDialog() {
  const projectId = useStore((s) => s.project?.id ?? '');
  const sessions = useStore(
    useShallow((s) =>
      Object.values(s.sessions)
        .filter((x) => !x.background || s.tabs.open.includes(x.id))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)),
    ),
  );
  const commands = useMemo(() => paletteCommands(), []);
  const [raw, setRaw] = useState('');
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [showFilters, setShowFilters] = useState(false);
  const [answer, setAnswer] = useState<{ key: string; value: SearchAnswer } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const baseId = useId();

  const { mode, text } = parseInput(raw);
  const query: SearchQuery | null = useMemo(() => {
    if (mode === 'commands' || text.length < MIN_SEARCH) return null;
    const from = dayMs(filters.from, false);
    const to = dayMs(filters.to, true);
    return {
      text,
      scope: filters.scope === 'all' ? { kind: 'all' } : { kind: 'project', projectId },
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      ...(filters.model ? { model: filters.model } : {}),
      ...(filters.errorsOnly ? { errorsOnly: true } : {}),
      limit: 50,
    };
  }, [mode, text, filters, projectId]);
  const queryKey = query ? JSON.stringify(query) : null;

  useEffect(() => {
    if (query === null || queryKey === null) return;
    let current = true;
    const timer = setTimeout(() => {
      searchApi.query(query).then(
        (value) => {
          if (!current) return;
          setAnswer({ key: queryKey, value });
          setError(null);
        },
        (e: unknown) => {
          if (current) setError(e instanceof IpcRequestError || e instanceof Error ? e.message : String(e));
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, queryKey]);

  // Results of an older query stay on screen (no flicker) only while they still fit what is typed.
  const fresh = answer !== null && queryKey !== null && answer.key === queryKey;
  const hits = queryKey !== null && answer !== null ? answer.value.hits : NO_HITS;
  const entries = useMemo(
    () => paletteEntries(raw, sessions, commands, hits),
    [raw, sessions, commands, hits],
  );
  const selected = Math.min(active, Math.max(0, entries.length - 1));

  useEffect(() => {
    listRef.current
      ?.querySelector<HTMLElement>(`[data-entry="${selected}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const close = () => setPaletteOpen(false);
  const run = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    close();
    if (entry.kind === 'session') void openSession(entry.session.id);
    else if (entry.kind === 'command') entry.command.run();
    else void openHit(entry.hit);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = entries.length;
      if (n > 0) setActive((selected + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      run(entries[selected]);
    }
  };

  /** Tab and Shift+Tab stay inside the palette. */
  const trapTab = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Tab') return;
    const root = e.currentTarget;
    const focusable = [...root.querySelectorAll<HTMLElement>('input, select, button, [tabindex="0"]')].filter(
      (el) => !el.hasAttribute('disabled'),
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const models = answer?.value.models ?? [];
  const optionId = (i: number) => `${baseId}-opt-${i}`;
  const groups: { label: string; kind: PaletteEntry['kind'] }[] = [
    { label: 'Sessions', kind: 'session' },
    { label: 'Commands', kind: 'command' },
    { label: filters.scope === 'all' ? 'Messages in all projects' : 'Messages', kind: 'hit' },
  ];
  const searching = query !== null && !fresh && error === null;

  return (
    <Dialog label="Command palette" onClose={close} className="command-palette">
      <div className="palette" onKeyDown={trapTab}>
        <div className="palette-input-row">
          <input
            type="text"
            role="combobox"
            aria-label="Search sessions, commands and messages"
            aria-expanded="true"
            aria-controls={`${baseId}-list`}
            aria-activedescendant={entries.length > 0 ? optionId(selected) : undefined}
            aria-autocomplete="list"
            placeholder="Go to a session, run a command (>), search messages (#)"
            value={raw}
            onChange={(e) => {
              setRaw(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            spellCheck={false}
          />
          <button
            type="button"
            className="palette-filter-toggle"
            aria-expanded={showFilters}
            aria-controls={`${baseId}-filters`}
            onClick={() => setShowFilters((v) => !v)}
          >
            Filters{filtersSet(filters) ? ' •' : ''}
          </button>
        </div>
        {showFilters ? (
          <fieldset className="palette-filters" id={`${baseId}-filters`}>
            <legend className="palette-sr-only">Message search filters</legend>
            <label>
              Where
              <select
                value={filters.scope}
                onChange={(e) =>
                  setFilters({ ...filters, scope: e.target.value === 'all' ? 'all' : 'project' })
                }
              >
                <option value="project">This project</option>
                <option value="all">All projects</option>
              </select>
            </label>
            <label>
              From
              <input
                type="date"
                value={filters.from}
                onChange={(e) => setFilters({ ...filters, from: e.target.value })}
              />
            </label>
            <label>
              To
              <input
                type="date"
                value={filters.to}
                onChange={(e) => setFilters({ ...filters, to: e.target.value })}
              />
            </label>
            <label>
              Model
              <select
                value={filters.model}
                onChange={(e) => setFilters({ ...filters, model: e.target.value })}
              >
                <option value="">Any model</option>
                {[...new Set([...models, ...(filters.model ? [filters.model] : [])])].map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
            <label className="palette-check">
              <input
                type="checkbox"
                checked={filters.errorsOnly}
                onChange={(e) => setFilters({ ...filters, errorsOnly: e.target.checked })}
              />
              Errors only
            </label>
            <button type="button" onClick={() => setFilters(NO_FILTERS)} disabled={!filtersSet(filters)}>
              Clear
            </button>
          </fieldset>
        ) : null}
        <div className="palette-list" role="listbox" id={`${baseId}-list`} aria-label="Results" ref={listRef}>
          {groups.map((g) => {
            const inGroup = entries.map((entry, i) => ({ entry, i })).filter((x) => x.entry.kind === g.kind);
            if (inGroup.length === 0) return null;
            return (
              <div role="group" aria-labelledby={`${baseId}-${g.kind}`} key={g.kind}>
                <div className="palette-group" id={`${baseId}-${g.kind}`}>
                  {g.label}
                  {g.kind === 'hit' && answer && answer.value.total > answer.value.hits.length
                    ? ` (first ${answer.value.hits.length} of ${answer.value.total})`
                    : ''}
                </div>
                {inGroup.map(({ entry, i }) => (
                  <div
                    key={entry.key}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === selected}
                    data-entry={i}
                    className={`palette-option palette-${entry.kind}${i === selected ? ' active' : ''}`}
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseMove={() => {
                      if (i !== selected) setActive(i);
                    }}
                    onClick={() => run(entry)}
                  >
                    <EntryView entry={entry} />
                  </div>
                ))}
              </div>
            );
          })}
          {entries.length === 0 && !searching ? (
            <p className="palette-empty muted">
              {error !== null
                ? `Search failed: ${error}`
                : text.length > 0
                  ? 'Nothing matches.'
                  : 'No sessions yet.'}
            </p>
          ) : null}
        </div>
        <p className="palette-status muted" role="status">
          {error !== null && entries.length > 0
            ? `Search failed: ${error}`
            : searching
              ? 'Searching messages…'
              : fresh
                ? `${answer.value.total} ${answer.value.total === 1 ? 'message' : 'messages'} found`
                : mode === 'all' && text.length >= MIN_SEARCH
                  ? ''
                  : '↑↓ to move, Enter to open, Esc to close'}
        </p>
      </div>
    </Dialog>
  );
}

function filtersSet(f: Filters): boolean {
  return f.scope !== 'project' || f.from !== '' || f.to !== '' || f.model !== '' || f.errorsOnly;
}

function EntryView({ entry }: { entry: PaletteEntry }) {
  if (entry.kind === 'session')
    return (
      <>
        <span className="palette-title">{entry.session.title}</span>
        <span className="palette-meta muted">Session</span>
      </>
    );
  if (entry.kind === 'command')
    return (
      <>
        <span className="palette-title">{entry.command.label}</span>
        {entry.command.keys ? <kbd className="palette-meta">{entry.command.keys}</kbd> : null}
      </>
    );
  const h = entry.hit;
  return (
    <div className="palette-hit">
      <div className="palette-hit-head">
        <span className="palette-title">
          {h.sessionTitle}
          {h.agent ? (
            <span className="palette-agent">
              {' '}
              in {h.agent.call ? 'sub-agent' : 'teammate'} <code>{h.agent.name}</code>
            </span>
          ) : null}
        </span>
        <span className="palette-meta muted">
          {KIND_LABEL[h.kind]}
          {h.isError ? ' (failed)' : ''} · {new Date(h.at).toLocaleString()}
          {h.model ? ` · ${h.model}` : ''}
          {` · ${h.projectName}`}
        </span>
      </div>
      <Snippet snippet={h.snippet} />
    </div>
  );
}
