import { useState } from 'react';
import {
  McpServerConfigInput,
  McpServerName,
  type McpAddScope,
  type McpServerConfigInput as ServerInput,
} from '@shared/domain/mcp';

type Transport = ServerInput['transport'];

/**
 * Arguments as a shell would split simple ones: on spaces, with "double" or 'single' quotes keeping
 * spaces inside one argument. Nothing is expanded; the server gets exactly these strings.
 */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** "Add a server": checked here with the contract's own schemas, and again by the main process. */
export function McpAddForm({
  onAdd,
}: {
  onAdd: (name: string, scope: McpAddScope, server: ServerInput) => Promise<boolean>;
}) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<McpAddScope>('project');
  const [transport, setTransport] = useState<Transport>('stdio');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    const n = McpServerName.safeParse(name.trim());
    if (!n.success) return setProblem(`Name: ${n.error.issues[0]?.message ?? 'not valid'}`);
    const server = McpServerConfigInput.safeParse(
      transport === 'stdio' ? { transport, command, args: splitArgs(args) } : { transport, url },
    );
    if (!server.success) {
      const issue = server.error.issues[0];
      const field =
        issue?.path[0] === 'url' ? 'Address' : issue?.path[0] === 'command' ? 'Command' : 'Server';
      return setProblem(`${field}: ${issue?.message ?? 'not valid'}`);
    }
    setProblem(null);
    if (await onAdd(n.data, scope, server.data)) {
      setName('');
      setCommand('');
      setArgs('');
      setUrl('');
    }
  };

  return (
    <form
      className="mcp-add"
      aria-label="Add an MCP server"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h4>Add a server</h4>
      <div className="settings-grid">
        <label className="settings-label" htmlFor="mcp-add-name">
          Name
        </label>
        <input
          id="mcp-add-name"
          className="settings-control"
          value={name}
          onChange={(e) => setName(e.target.value)}
          spellCheck={false}
          autoComplete="off"
        />
        <span />
        <label className="settings-label" htmlFor="mcp-add-scope">
          Save in
        </label>
        <select
          id="mcp-add-scope"
          className="settings-control"
          value={scope}
          onChange={(e) => setScope(e.target.value as McpAddScope)}
        >
          <option value="project">This project (.mcp.json)</option>
          <option value="user">All my projects (~/.claude.json)</option>
        </select>
        <span />
        <label className="settings-label" htmlFor="mcp-add-transport">
          Transport
        </label>
        <select
          id="mcp-add-transport"
          className="settings-control"
          value={transport}
          onChange={(e) => setTransport(e.target.value as Transport)}
        >
          <option value="stdio">Command (stdio)</option>
          <option value="http">HTTP (streamable)</option>
          <option value="sse">SSE</option>
        </select>
        <span />
        {transport === 'stdio' ? (
          <>
            <label className="settings-label" htmlFor="mcp-add-command">
              Command
            </label>
            <input
              id="mcp-add-command"
              className="settings-control settings-path"
              value={command}
              placeholder="npx"
              onChange={(e) => setCommand(e.target.value)}
              spellCheck={false}
            />
            <span />
            <label className="settings-label" htmlFor="mcp-add-args">
              Arguments
            </label>
            <input
              id="mcp-add-args"
              className="settings-control settings-path"
              value={args}
              placeholder='-y @modelcontextprotocol/server-memory "a b"'
              onChange={(e) => setArgs(e.target.value)}
              spellCheck={false}
            />
            <span />
          </>
        ) : (
          <>
            <label className="settings-label" htmlFor="mcp-add-url">
              Address
            </label>
            <input
              id="mcp-add-url"
              className="settings-control settings-path"
              value={url}
              placeholder="https://example.com/mcp"
              onChange={(e) => setUrl(e.target.value)}
              spellCheck={false}
            />
            <span />
          </>
        )}
      </div>
      {problem ? (
        <p role="alert" className="error-text">
          {problem}
        </p>
      ) : null}
      <div className="row end">
        <button type="submit">Add server</button>
      </div>
    </form>
  );
}
