import { useStore } from '../stores/store';

export function Header() {
  const project = useStore((s) => s.project);
  const layout = useStore((s) => s.layout);
  const open = (dialog: 'open-project' | 'settings') => useStore.setState({ dialog });
  return (
    <header className="header">
      <span className="brand" aria-hidden="true">
        ◆ Carapace
      </span>
      <span className="project-name" title={project?.path}>
        {project ? project.name : 'No project open'}
      </span>
      <span className="spacer" />
      {project ? (
        <button
          type="button"
          aria-pressed={layout === 'grid'}
          title="Show every open session at once"
          onClick={() => useStore.getState().setLayout(layout === 'grid' ? 'tabs' : 'grid')}
        >
          Side by side
        </button>
      ) : null}
      <button type="button" onClick={() => open('open-project')}>
        Open project…
      </button>
      <button type="button" onClick={() => open('settings')}>
        Settings
      </button>
    </header>
  );
}
