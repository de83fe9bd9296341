import type { TrustItemKind } from '@shared/domain/trust';
import { Dialog } from '../../components/Dialog';
import { decideTrust } from '../../ipc/actions';
import { useStore } from '../../stores/store';

const KIND_LABEL: Record<TrustItemKind, string> = {
  allow: 'Allow rules',
  sandbox: 'Sandbox',
  hook: 'Hooks (run commands)',
  mcp: 'MCP servers',
  env: 'Environment',
  apiKeyHelper: 'API key helper',
  plugin: 'Plugins switched on or off',
};
const ORDER = Object.keys(KIND_LABEL) as TrustItemKind[];

/**
 * "Trust this folder?": what the project's own `.claude/settings*.json` and `.mcp.json` would widen,
 * none of which applies until the person says so. Deny and ask rules apply either way. Closing
 * without an answer decides nothing (it asks again next time).
 */
export function TrustDialog() {
  const prompt = useStore((s) => s.trustPrompt);
  if (!prompt) return null;
  const items = prompt.items.filter((i) => i.state !== 'accepted');
  const close = () => useStore.setState({ trustPrompt: null });
  // The decision covers what is listed here and nothing else.
  const shown = items.map((i) => i.key);
  return (
    <Dialog label="Trust this folder?" onClose={close} className="trust">
      <h2>Trust this folder?</h2>
      <p className="trust-path">
        <code>{prompt.path}</code>
      </p>
      <p>
        Its own settings would let the agent do more than your settings allow. Trust them only if you trust
        whoever wrote this repository. Until then none of this applies; its deny and ask rules apply either
        way.
      </p>
      <div className="trust-items" role="region" aria-label="What the folder's settings would change">
        {ORDER.map((kind) => {
          const group = items.filter((i) => i.kind === kind);
          if (group.length === 0) return null;
          return (
            <section key={kind} aria-label={KIND_LABEL[kind]}>
              <h3>{KIND_LABEL[kind]}</h3>
              <ul>
                {group.map((i) => (
                  <li key={i.key}>
                    <code>{i.label}</code> <span className="muted">{i.file}</span>
                    {i.state === 'pending' && prompt.items.some((x) => x.state !== 'pending') ? (
                      <span className="trust-new"> new</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
      <div className="row end">
        <button type="button" onClick={() => void decideTrust(prompt.projectId, false, shown)}>
          Don&apos;t trust
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void decideTrust(prompt.projectId, true, shown)}
        >
          Trust
        </button>
      </div>
    </Dialog>
  );
}
