import { useRef, useState, type KeyboardEvent } from 'react';
import { closeSession, newSession, openSession, renameSession, reorderTabs } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { labelWithBadge, StateBadge, useBadge } from './StateBadge';

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
        ×
      </button>
    </div>
  );
}

export function TabStrip() {
  const open = useStore((s) => s.tabs.open);
  return (
    <div className="tabstrip">
      <div role="tablist" aria-label="Open sessions" className="tabs">
        {open.map((id, i) => (
          <Tab key={id} sessionId={id} index={i} />
        ))}
      </div>
      <button
        type="button"
        className="new-tab"
        aria-label="New session"
        title="New session (Ctrl+T)"
        onClick={() => void newSession()}
      >
        +
      </button>
      <button
        type="button"
        className="new-tab new-team"
        aria-label="New team session"
        title="New team session: a coordinator that splits the work among workers it creates"
        onClick={() => void newSession({ coordinator: true })}
      >
        + Team
      </button>
    </div>
  );
}
