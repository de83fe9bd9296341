import type { CommandList } from '@shared/ipc/contract/commands';
import { Dialog } from '../../components/Dialog';
import { allCommands } from './suggestions';

const SOURCE = { builtin: 'built in', project: 'project', user: 'user' } as const;

/** `/help`: every command the message box knows, and the command files that were left out. */
export function HelpDialog({ list, onClose }: { list: CommandList | null; onClose: () => void }) {
  const commands = allCommands(list?.commands ?? []);
  return (
    <Dialog label="Slash commands" onClose={onClose} className="slash-help">
      <h2>Slash commands</h2>
      <p className="muted">
        Type <kbd>/</kbd> in the message box: ↑/↓ choose, Enter or Tab picks, Esc closes. Custom commands are
        Markdown files in <code>.claude/commands/</code> (the project) and <code>~/.claude/commands/</code>{' '}
        (yours); <code>$ARGUMENTS</code> and <code>$1</code>, <code>$2</code>… take what follows the name.
      </p>
      <table className="slash-help-table">
        <tbody>
          {commands.map((c) => (
            <tr key={`${c.source}:${c.name}`}>
              <td className="slash-name">
                /{c.name}
                {c.argumentHint ? <span className="slash-hint"> {c.argumentHint}</span> : null}
              </td>
              <td>{c.description}</td>
              <td className="muted">{SOURCE[c.source]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list && list.problems.length > 0 ? (
        <section aria-label="Command files not loaded">
          <h3>Not loaded</h3>
          <ul className="slash-problems">
            {list.problems.map((p) => (
              <li key={p.file}>
                <code>{p.file}</code>: {p.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="row end">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
