import { useRef, useState, type KeyboardEvent } from 'react';
import { ChevronLeft, ChevronRight, Pin, Plus, Users, X } from 'lucide-react';
import { CloseWorktreeDialog } from '../worktrees/CloseWorktreeDialog';
import { NewSessionOptionsButton } from '../worktrees/NewSessionDialog';
import { closeSession, newSession, openSession, renameSession, reorderTabs } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { labelWithBadge, StateBadge, useBadge } from './StateBadge';
import { TabOverflowMenu } from './TabOverflowMenu';
import { useStripScroll } from './useStripScroll';
import './tabstrip.css';

export const tabId = (sessionId: string) => `tab-${sessionId}`;
export const panelId = (sessionId: string) => `panel-${sessionId}`;

function RenameField({ initial, onDone }: { initial: string; onDone: (title: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const finished = useRef(false);
  const finish = (title: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(title);
  };
  return (
    <input
      className="rename"
      aria-label="Session name"
      autoFocus
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') finish(value.trim() || null);
        if (e.key === 'Escape') finish(null);
      }}
      onBlur={() => finish(value.trim() || null)}
    />
  );
}

function Tab({ sessionId, index }: { sessionId: string; index: number }) {
  const title = useStore((s) => s.sessions[sessionId]?.title ?? 'Session');
  const selected = useStore((s) => s.tabs.active === sessionId);
  const pinned = useStore((s) => s.layout === 'grid' && s.tiled.includes(sessionId));
  const badge = useBadge(sessionId);
  const [renaming, setRenaming] = useState(false);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const { open } = useStore.getState().tabs;
    if (e.key === 'F2') {
      e.preventDefault();
      setRenaming(true);
    } else if (e.key === 'Delete') {
      e.preventDefault();
      void closeSession(sessionId);
    } else if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && !e.ctrlKey && !e.metaKey) {
      // Roving focus, as the ARIA tabs pattern has it.
      const next = open[(index + (e.key === 'ArrowRight' ? 1 : open.length - 1)) % open.length];
      if (next) {
        e.preventDefault();
        void openSession(next, { focus: false });
        document.getElementById(tabId(next))?.focus();
      }
    }
  };

  return (
    <div
      role="tab"
      id={tabId(sessionId)}
      aria-selected={selected}
      aria-label={labelWithBadge(title, badge)}
      // The whole name, however much of it the tab has room for.
      title={title}
      data-badge={badge}
      aria-controls={panelId(sessionId)}
      tabIndex={selected ? 0 : -1}
      className={`tab${selected ? ' selected' : ''}`}
      draggable={!renaming}
      onDragStart={(e) => e.dataTransfer.setData('application/x-carapace-tab', sessionId)}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const moved = e.dataTransfer.getData('application/x-carapace-tab');
        const order = useStore.getState().tabs.open.filter((id) => id !== moved);
        if (!moved || moved === sessionId) return;
        order.splice(order.indexOf(sessionId), 0, moved);
        void reorderTabs(order);
      }}
      onClick={() => void openSession(sessionId)}
      onDoubleClick={() => setRenaming(true)}
      onAuxClick={(e) => {
        if (e.button === 1) void closeSession(sessionId);
      }}
      onKeyDown={onKeyDown}
    >
      {renaming ? (
        <RenameField
          initial={title}
          onDone={(t) => {
            setRenaming(false);
            if (t && t !== title) void renameSession(sessionId, t);
          }}
        />
      ) : (
        <span className="tab-title">{title}</span>
      )}
      {pinned ? <Pin className="tab-pin" size={12} aria-label="pinned to side by side" /> : null}
      <StateBadge sessionId={sessionId} />
      <button
        type="button"
        className="tab-close"
        aria-label={`Close ${title}`}
        tabIndex={-1}
        onClick={(e) => {
          e.stopPropagation();
          void closeSession(sessionId);
        }}
      >
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  );
}

/** An arrow at one end of an overflowing strip: pages the tabs that way. */
function StripArrow({
  direction,
  enabled,
  page,
}: {
  direction: -1 | 1;
  enabled: boolean;
  page: (direction: -1 | 1) => void;
}) {
  const label = `Scroll tabs ${direction === -1 ? 'left' : 'right'}`;
  const Icon = direction === -1 ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      className="strip-button strip-arrow"
      aria-label={label}
      title={label}
      tabIndex={-1}
      disabled={!enabled}
      onClick={() => page(direction)}
    >
      <Icon size={16} aria-hidden="true" />
    </button>
  );
}

/**
 * The open tabs. When they outgrow the window the row scrolls (wheel, arrows at both ends), the
 * active tab and a newly opened one are always scrolled into view, and "All tabs" lists every one.
 */
export function TabStrip() {
  const open = useStore((s) => s.tabs.open);
  const active = useStore((s) => s.tabs.active);
  const { ref, canLeft, canRight, page } = useStripScroll(
    active === null ? null : tabId(active),
    open.length,
  );
  const overflowing = canLeft || canRight;
  return (
    <div className="tabstrip">
      {overflowing ? <StripArrow direction={-1} enabled={canLeft} page={page} /> : null}
      <div ref={ref} role="tablist" aria-label="Open sessions" className="tabs">
        {open.map((id, i) => (
          <Tab key={id} sessionId={id} index={i} />
        ))}
      </div>
      {overflowing ? <StripArrow direction={1} enabled={canRight} page={page} /> : null}
      <TabOverflowMenu />
      <button
        type="button"
        className="new-tab"
        aria-label="New session"
        title="New session (Ctrl+T)"
        onClick={() => void newSession()}
      >
        <Plus size={18} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="new-tab new-team"
        aria-label="New team session"
        title="New team session: a coordinator that splits the work among workers it creates"
        onClick={() => void newSession({ coordinator: true })}
      >
        <Users size={16} aria-hidden="true" /> Team
      </button>
      <NewSessionOptionsButton />
      <CloseWorktreeDialog />
    </div>
  );
}
