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
            <PathField
              id="mcp-add-command"
              label="Command"
              value={command}
              placeholder="npx"
              onChange={setCommand}
            />
            <PathField
              id="mcp-add-args"
              label="Arguments"
              value={args}
              placeholder='-y @modelcontextprotocol/server-memory "a b"'
              onChange={setArgs}
            />
          </>
        ) : (
          <>
            <PathField
              id="mcp-add-url"
              label="Address"
              value={url}
              placeholder="https://example.com/mcp"
              onChange={setUrl}
            />
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

/** One labelled text field of the settings grid for a command, its arguments or an address. */
function PathField(p: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <label className="settings-label" htmlFor={p.id}>
        {p.label}
      </label>
      <input
        id={p.id}
        className="settings-control settings-path"
        value={p.value}
        placeholder={p.placeholder}
        onChange={(e) => p.onChange(e.target.value)}
        spellCheck={false}
      />
      <span />
    </>
  );
}
