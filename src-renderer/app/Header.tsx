import { useState } from 'react';
import {
  Archive,
  Brain,
  CircleDollarSign,
  Columns2,
  FolderOpen,
  Settings,
  type LucideIcon,
} from 'lucide-react';
import carapaceMark from '../../resources/icons/carapace.svg';
import { ArchiveDialog } from '../features/sessions/ArchiveDialog';
import { useStore } from '../stores/store';
import './header.css';

/** A header button: an icon and a word (the word hides on narrow windows, see header.css). */
function HeaderButton({
  icon: Icon,
  label,
  name = label,
  title,
  pressed,
  onClick,
}: {
  icon: LucideIcon;
  label: string;
  /** The accessible name, when it says more than the word shown. */
  name?: string;
  title: string;
  /** For a button that toggles a mode. */
  pressed?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-pressed={pressed}
      aria-label={name}
      title={title}
      onClick={onClick}
    >
      <Icon size={15} aria-hidden="true" />
      <span className="label">{label}</span>
    </button>
  );
}

export function Header() {
  const project = useStore((s) => s.project);
  const layout = useStore((s) => s.layout);
  const [archiveOpen, setArchiveOpen] = useState(false);
  const open = (dialog: 'open-project' | 'settings') => useStore.setState({ dialog });
  return (
    <header className="header">
      <span className="brand">
        {/* The app's own mark (resources/icons/carapace.svg), not a glyph that needs an emoji font. */}
        <img src={carapaceMark} alt="" width={20} height={20} />
        Carapace
      </span>
      <span className="project-name" title={project?.path}>
        {project ? project.name : 'No project open'}
      </span>
      <span className="spacer" />
      {project ? (
        <HeaderButton
          icon={Columns2}
          label="Side by side"
          title="Show every open session at once"
          pressed={layout === 'grid'}
          onClick={() => useStore.getState().setLayout(layout === 'grid' ? 'tabs' : 'grid')}
        />
      ) : null}
      {project ? (
        <HeaderButton
          icon={Archive}
          label="Archive"
          name="Archived and deleted sessions"
          title="Archived sessions and the trash"
          onClick={() => setArchiveOpen(true)}
        />
      ) : null}
      {project ? (
        <HeaderButton
          icon={Brain}
          label="Memory"
          title="Instruction files and memories (Ctrl+Shift+M)"
          onClick={() => useStore.getState().setMemoryOpen(true)}
        />
      ) : null}
      {project ? (
        <HeaderButton
          icon={CircleDollarSign}
          label="Cost"
          name="Cost dashboard"
          title="Spend by day, model and session; budgets (Ctrl+Shift+U)"
          onClick={() => useStore.getState().setCostOpen(true)}
        />
      ) : null}
      <HeaderButton
        icon={FolderOpen}
        label="Open project…"
        title="Open a project folder"
        onClick={() => open('open-project')}
      />
      <HeaderButton icon={Settings} label="Settings" title="Settings" onClick={() => open('settings')} />
      {archiveOpen ? <ArchiveDialog onClose={() => setArchiveOpen(false)} /> : null}
    </header>
  );
}
