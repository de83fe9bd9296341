import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ChevronDown, Pin } from 'lucide-react';
import { openSession } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { labelWithBadge, StateBadge, useBadge } from './StateBadge';

function Entry({ sessionId, onChosen }: { sessionId: string; onChosen: () => void }) {
  const title = useStore((s) => s.sessions[sessionId]?.title ?? 'Session');
  const active = useStore((s) => s.tabs.active === sessionId);
  const pinned = useStore((s) => s.tiled.includes(sessionId));
  const badge = useBadge(sessionId);
  return (
    <li role="none" className={`tab-menu-entry${active ? ' active' : ''}`}>
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        className="tab-menu-switch"
        aria-label={labelWithBadge(title, badge)}
        aria-current={active ? 'true' : undefined}
        data-session={sessionId}
        data-badge={badge}
        title={title}
        onClick={() => {
          onChosen();
          void openSession(sessionId);
        }}
      >
        <StateBadge sessionId={sessionId} />
        <span className="tab-menu-title">{title}</span>
      </button>
      <button
        type="button"
        role="menuitemcheckbox"
        tabIndex={-1}
        aria-checked={pinned}
        className="tab-menu-pin"
        aria-label={`Pin ${title} to side by side`}
        title={pinned ? 'Pinned to side by side: click to unpin' : 'Pin to side by side'}
        onClick={() => useStore.getState().toggleTiled(sessionId)}
      >
        <Pin size={14} aria-hidden="true" />
      </button>
    </li>
  );
}

/**
 * Every open tab in one list, whatever the strip has room for: its state, a click to switch to it,
 * and a pin choosing it for side by side. Arrow keys move, Enter or Space chooses, Esc closes.
 */
export function TabOverflowMenu() {
  const open = useStore((s) => s.tabs.open);
  const [shown, setShown] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
  const close = (refocus: boolean) => {
    setShown(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!shown) return;
    // The active session's entry takes the cursor, so Enter on it just closes the menu.
    const first = menu.current?.querySelector<HTMLElement>('[aria-current="true"]') ?? items()[0];
    first?.focus();
    const outside = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setShown(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [shown]);

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const all = items();
    const i = all.indexOf(document.activeElement as HTMLElement);
    const move = (j: number) => all[(j + all.length) % all.length]?.focus();
    if (e.key === 'Escape') {
      // Handled here: Esc must not also stop the session's reply (app/shortcuts.ts).
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowRight') {
      e.preventDefault();
      move(i + 1);
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') {
      e.preventDefault();
      move(i - 1);
    } else if (e.key === 'Home') {
      e.preventDefault();
      move(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      move(all.length - 1);
    } else if (e.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div className="tab-menu-anchor">
      <button
        ref={button}
        type="button"
        className="strip-button"
        aria-label="All tabs"
        aria-haspopup="menu"
        aria-expanded={shown}
        aria-controls={shown ? menuId : undefined}
        title={`All tabs (${open.length}). Next / previous tab: Ctrl+Tab / Ctrl+Shift+Tab, in a browser Ctrl+PageDown / Ctrl+PageUp`}
        onClick={() => setShown(!shown)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !shown) {
            e.preventDefault();
            setShown(true);
          }
        }}
      >
        <ChevronDown size={16} aria-hidden="true" />
        <span className="strip-count">{open.length}</span>
      </button>
      {shown ? (
        <ul
          id={menuId}
          ref={menu}
          role="menu"
          aria-label="All tabs"
          className="tab-menu"
          onKeyDown={onKeyDown}
        >
          {open.length === 0 ? (
            <li role="none" className="muted tab-menu-empty">
              No tabs open.
            </li>
          ) : (
            open.map((id) => <Entry key={id} sessionId={id} onChosen={() => close(false)} />)
          )}
          <li role="none" className="tab-menu-help muted">
            Next / previous tab: Ctrl+Tab / Ctrl+Shift+Tab; in a browser, which keeps Ctrl+Tab, Ctrl+PageDown
            / Ctrl+PageUp.
          </li>
        </ul>
      ) : null}
    </div>
  );
}
