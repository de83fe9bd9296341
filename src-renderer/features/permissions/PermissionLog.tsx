import { useEffect, useState } from 'react';
import type { PermissionLogEntry } from '@shared/domain/permissions';
import { addRule, loadPermissionLog } from '../../ipc/actions';
import { useStore } from '../../stores/store';
import { ruleFromEntry } from '../../stores/permissions-slice';

const EMPTY: PermissionLogEntry[] = [];

function MakeRule({ entry, projectRoot }: { entry: PermissionLogEntry; projectRoot: string }) {
  const [rule, setRule] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  if (saved) return <span className="muted">rule saved</span>;
  if (rule === null) {
    return (
      <button type="button" className="link" onClick={() => setRule(ruleFromEntry(entry, projectRoot))}>
        Make rule…
      </button>
    );
  }
  return (
    <form
      className="row make-rule"
      onSubmit={(e) => {
        e.preventDefault();
        void addRule('allow', rule).then((view) => view && setSaved(true));
      }}
    >
      <input
        aria-label="New rule"
        value={rule}
        onChange={(e) => setRule(e.target.value)}
        placeholder="no rule suggested: type one"
        spellCheck={false}
      />
      <button type="submit" disabled={rule.trim() === ''}>
        Save rule
      </button>
    </form>
  );
}

/** Who or what decided each tool call of the session, under which rule; approvals can become rules. */
export function PermissionLog({ sessionId }: { sessionId: string }) {
  const entries = useStore((s) => s.permissionLogs[sessionId] ?? EMPTY);
  const projectRoot = useStore((s) => s.project?.path ?? '');
  useEffect(() => {
    void loadPermissionLog(sessionId);
  }, [sessionId]);
  return (
    <section role="region" aria-label="Permission log" className="permission-log">
      {entries.length === 0 ? <p className="muted">No permission decisions yet.</p> : null}
      <ol>
        {entries.map((e) => (
          <li key={e.id} className={`log-${e.behavior}`} data-decided-by={e.decidedBy}>
            <span className="log-time">{new Date(e.at).toLocaleTimeString()}</span>
            <span className={`log-behavior log-${e.behavior}`}>
              {e.behavior === 'allow' ? 'allowed' : 'denied'}
            </span>
            <strong>{e.toolName}</strong> <code>{e.summary}</code>
            <span className="log-by">
              by {e.decidedBy}
              {e.rule ? ` — ${e.rule.text} (${e.rule.source})` : ''}
            </span>
            {e.behavior === 'allow' && e.decidedBy === 'user' && !e.addedRule ? (
              <MakeRule entry={e} projectRoot={projectRoot} />
            ) : null}
            {e.addedRule ? <span className="muted"> wrote {e.addedRule}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
