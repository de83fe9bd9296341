import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { isBuiltinCommand, type CommandList } from '@shared/ipc/contract/commands';
import { getClient } from '../../ipc/client';
import { sendMessage } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { runBuiltin, type BuiltinOutcome } from './builtin-actions';
import { HelpDialog } from './HelpDialog';
import { suggestionsFor, type Suggestion } from './suggestions';
import './commands.css';

const SOURCE = { builtin: 'built in', project: 'project', user: 'user' } as const;

/** `/name args` as typed: the name and what follows, or null for a message that is not a command. */
function invocation(text: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9_][A-Za-z0-9_.:-]*)(?:[ \t\n]+([\s\S]*))?$/.exec(text.trim());
  return m?.[1] ? { name: m[1], args: (m[2] ?? '').trim() } : null;
}

interface Options {
  sessionId: string;
  draft: string;
  setDraft: (text: string) => void;
  /** `/resume`: the list of archived and earlier sessions (the sessions feature's, passed in to keep the folders apart). */
  ResumePanel: ComponentType<{ onClose: () => void }>;
}

/**
 * The composer's slash commands: the autocomplete list over the message box (filtered as you type,
 * ↑/↓ move, Enter or Tab picks, Esc closes; focus never leaves the box), the built-ins' actions, and
 * the panels they open. Custom commands are listed from the main process and expanded there when
 * sent. Returns the list to draw, the key handler (true when it used the key), the props the box
 * needs for assistive technology, and `run` for a typed command on Enter.
 */
export function useSlashCommands({ sessionId, draft, setDraft, ResumePanel }: Options): {
  popup: ReactNode;
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  inputProps: Record<string, string | undefined>;
  run: (text: string) => Promise<boolean>;
} {
  const projectId = useStore((s) => s.project?.id ?? null);
  const models = useStore((s) => s.models);
  const [list, setList] = useState<CommandList | null>(null);
  // The highlighted row, for the draft it was chosen in: a new filter starts at the top.
  const [highlight, setHighlight] = useState({ draft: '', index: 0 });
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const [panel, setPanel] = useState<'help' | 'resume' | null>(null);
  const listId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const slash = draft.startsWith('/');

  // Read afresh each time a `/` starts a draft: a command file added since shows at once.
  useEffect(() => {
    if (!slash || projectId === null) return;
    let live = true;
    getClient()
      .invoke('commands.list', { projectId })
      .then(
        (l) => live && setList(l),
        // Without the list the built-ins still work; the error surfaces when a custom one is sent.
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [slash, projectId]);

  const items = useMemo(() => suggestionsFor(draft, list?.commands ?? [], models), [draft, list, models]);
  const open = items.length > 0 && dismissedAt !== draft;
  const active = highlight.draft === draft ? highlight.index : 0;
  const current = Math.min(active, Math.max(0, items.length - 1));
  const setActive = (index: number) => setHighlight({ draft, index });

  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [current, open]);

  const apply = async (outcome: BuiltinOutcome, text: string): Promise<void> => {
    if (outcome.kind === 'complete') return setDraft(outcome.text);
    setDraft('');
    if (outcome.kind === 'panel') setPanel(outcome.panel);
    // Put the text back if the main process refused it, so nothing typed is lost.
    if (outcome.kind === 'send' && !(await sendMessage(sessionId, text))) setDraft(text);
  };

  const run = async (text: string): Promise<boolean> => {
    const call = invocation(text);
    if (!call || !isBuiltinCommand(call.name)) return false;
    await apply(await runBuiltin(call.name, call.args, sessionId), text);
    return true;
  };

  /** Enter (or a click) on a row; Tab only completes the text. */
  const pick = async (s: Suggestion, how: 'enter' | 'tab'): Promise<void> => {
    if (s.kind === 'model') {
      await apply(await runBuiltin('model', s.id, sessionId), draft);
      return;
    }
    const takesArguments = s.argumentHint !== null;
    if (how === 'tab' || (takesArguments && s.name !== 'compact')) {
      setDraft(s.name === 'model' ? '/model ' : `/${s.name} `);
      return;
    }
    const text = `/${s.name}`;
    if (s.source === 'builtin') {
      await run(text);
      return;
    }
    // A custom command without arguments goes at once; the main process expands it.
    setDraft('');
    if (!(await sendMessage(sessionId, text))) setDraft(text);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || e.nativeEvent.isComposing) return false;
    const chosen = items[current];
    switch (e.key) {
      case 'ArrowDown':
        setActive((current + 1) % items.length);
        break;
      case 'ArrowUp':
        setActive((current - 1 + items.length) % items.length);
        break;
      case 'Escape':
        // Closes the list only: the window's Esc (stop the reply) sees defaultPrevented and waits.
        setDismissedAt(draft);
        break;
      case 'Tab':
      case 'Enter':
        if (e.shiftKey || !chosen) return false;
        void pick(chosen, e.key === 'Enter' ? 'enter' : 'tab');
        break;
      default:
        return false;
    }
    e.preventDefault();
    return true;
  };

  const popup = (
    <>
      {open ? (
        <div ref={listRef} id={listId} className="slash-popup" role="listbox" aria-label="Commands">
          {items.map((s, i) => {
            const key = s.kind === 'model' ? `model:${s.id}` : `${s.source}:${s.name}`;
            return (
              <div
                key={key}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === current}
                className={`slash-item${i === current ? ' active' : ''}`}
                // The box keeps the cursor: a click picks without taking focus.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => void pick(s, 'enter')}
              >
                {s.kind === 'model' ? (
                  <>
                    <span className="slash-name">{s.id}</span>
                    <span className="slash-desc">{s.label}</span>
                  </>
                ) : (
                  <>
                    <span className="slash-name">
                      /{s.name}
                      {s.argumentHint ? <span className="slash-hint"> {s.argumentHint}</span> : null}
                    </span>
                    <span className="slash-desc" title={s.description}>
                      {s.description}
                    </span>
                    <span className="slash-source">{SOURCE[s.source]}</span>
                  </>
                )}
              </div>
            );
          })}
        </div>
      ) : null}
      {panel === 'help' ? <HelpDialog list={list} onClose={() => setPanel(null)} /> : null}
      {panel === 'resume' ? <ResumePanel onClose={() => setPanel(null)} /> : null}
    </>
  );

  return {
    popup,
    onKeyDown,
    inputProps: {
      'aria-autocomplete': 'list',
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open ? `${listId}-${current}` : undefined,
    },
    run,
  };
}
