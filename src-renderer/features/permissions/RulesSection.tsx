import { useEffect, useState } from 'react';
import type { RulesView } from '@shared/domain/permissions';
import { loadRules, removeRule } from '../../ipc/actions';

const SOURCES = ['policy', 'cli', 'local', 'project', 'user', 'session'];

/** The permission rules of the open project, by source; rules in settings.local.json can be removed. */
export function RulesSection() {
  const [view, setView] = useState<RulesView | null>(null);
  useEffect(() => {
    void loadRules().then((v) => v && setView(v));
  }, []);
  if (!view) return null;
  return (
    <section aria-label="Permission rules" className="rules">
      <h3>Permission rules</h3>
      <p className="muted">
        Sandbox:{' '}
        {view.sandbox.available
          ? view.sandbox.enabled
            ? 'on'
            : 'off (disabled in settings)'
          : `unavailable — ${view.sandbox.reason ?? 'unknown reason'}`}
        {view.sandbox.autoAllowBashIfSandboxed ? '; sandboxed commands run without asking' : ''}
      </p>
      {view.problems.map((p) => (
        <p key={p} role="alert" className="error-text">
          {p}
        </p>
      ))}
      {SOURCES.map((source) => {
        const rules = view.rules.filter((r) => r.source === source);
        const file = view.files.find((f) => f.source === source);
        if (rules.length === 0 && !file) return null;
        return (
          <div key={source} className="rule-source">
            <h4>
              {source}{' '}
              {file ? (
                <span className="muted">
                  {file.path}
                  {file.exists ? '' : ' (none yet)'}
                </span>
              ) : null}
            </h4>
            {rules.length === 0 ? <p className="muted">No rules.</p> : null}
            <ul>
              {rules.map((r) => (
                <li key={`${r.behavior}:${r.text}`}>
                  <span className={`rule-behavior rule-${r.behavior}`}>{r.behavior}</span>{' '}
                  <code>{r.text}</code>
                  {source === 'local' ? (
                    <button
                      type="button"
                      className="link"
                      aria-label={`Remove ${r.behavior} rule ${r.text}`}
                      onClick={() => void removeRule(r.behavior, r.text).then((v) => v && setView(v))}
                    >
                      Remove
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
