import { openProject } from '../../ipc/actions';
import { useStore } from '../../stores/store';

export function Welcome() {
  const recent = useStore((s) => s.recent);
  return (
    <main className="welcome">
      <h1>Carapace</h1>
      <p>
        Supervise AI coding agents: open a project folder, start sessions side by side, watch what each one
        does and costs.
      </p>
      <button type="button" className="primary" onClick={() => useStore.setState({ dialog: 'open-project' })}>
        Open project…
      </button>
      {recent.length > 0 ? (
        <section aria-label="Recent projects" className="recent">
          <h2>Recent projects</h2>
          <ul>
            {recent.map((p) => (
              <li key={p.path}>
                <button
                  type="button"
                  className="link"
                  onClick={() => void openProject(p.path)}
                  title={p.path}
                >
                  {p.name}
                </button>
                <span className="muted"> {p.path}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
