import { setLayout, useWorkspace } from '../stores/workspace-store';

export function Header() {
  const project = useWorkspace((s) => s.project);
  const layout = useWorkspace((s) => s.layout);
  const open = (dialog: 'open-project' | 'settings') => useWorkspace.setState({ dialog });
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
          onClick={() => setLayout(layout === 'grid' ? 'tabs' : 'grid')}
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
