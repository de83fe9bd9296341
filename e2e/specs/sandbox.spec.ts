import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startScriptedApi } from '../../src-main/devtools/scripted-api/server';
import { cliEnv, runCli } from '../fixtures/cli';
import { trustFolder } from '../fixtures/trust';

/**
 * The OS sandbox around the model's Bash commands, through the real `carapace -p`, real bubblewrap
 * and socat (installed by `.ci/run`), and the real sandbox runtime.
 */

interface Run {
  /** What each command printed, as the model received it. */
  outputs: string[];
  denied: string[];
  stderr: string;
  outside: string;
  project: string;
}

const SECRET = 'SECRET-KEY-CONTENT-4711';

async function runCommands(
  commands: (dirs: { outside: string; home: string }) => string[],
  o: { args: string[]; settings?: object; env?: Record<string, string>; files?: Record<string, string> },
): Promise<Run> {
  const outside = mkdtempSync(path.join(tmpdir(), 'carapace-outside-'));
  // The user's home as commands would see it, with a key in ~/.ssh.
  const home = mkdtempSync(path.join(tmpdir(), 'carapace-user-home-'));
  mkdirSync(path.join(home, '.ssh'));
  writeFileSync(path.join(home, '.ssh', 'id_ed25519'), `${SECRET}\n`);
  const dataHome = mkdtempSync(path.join(tmpdir(), 'carapace-data-'));
  const project = mkdtempSync(path.join(tmpdir(), 'carapace-sandboxed-project-'));
  mkdirSync(path.join(project, 'sub'));
  for (const [name, content] of Object.entries(o.files ?? {})) {
    mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
    writeFileSync(path.join(project, name), content);
  }
  if (o.settings) {
    mkdirSync(path.join(project, '.claude'));
    writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify(o.settings));
    // These settings are the person's own choice here: the folder is trusted (trust.spec.ts covers untrusted).
    trustFolder(dataHome, project);
  }
  const list = commands({ outside, home });
  const api = await startScriptedApi({
    scenario: {
      steps: [
        ...list.map((command, i) => ({
          reply: {
            content: [{ type: 'tool_use' as const, id: `c${i}`, name: 'Bash', input: { command } }],
            stop_reason: 'tool_use' as const,
          },
        })),
        { reply: { content: [{ type: 'text' as const, text: 'done' }] } },
      ],
    },
  });
  try {
    const env = cliEnv(dataHome, {
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-secret-key',
      GITHUB_TOKEN: 'ghp-test-token',
      HOME: home,
      CARAPACE_MAX_RETRIES: '0',
      ...o.env,
    });
    const run = runCli(['-p', 'go', '--output-format', 'json', ...o.args], env, project);
    expect(await run.exit, run.stderr()).toBe(0);
    const result = JSON.parse(run.stdout()) as { permission_denials: { tool_input: { command: string } }[] };
    const outputs = api.requests.slice(1).map((r) => {
      const last = r.body.messages?.at(-1) as { content: { type: string; content?: unknown }[] } | undefined;
      const block = last?.content.find((b) => b.type === 'tool_result');
      return typeof block?.content === 'string' ? block.content : JSON.stringify(block?.content);
    });
    return {
      outputs,
      denied: result.permission_denials.map((d) => d.tool_input.command),
      stderr: run.stderr(),
      outside,
      project,
    };
  } finally {
    await api.close();
    for (const d of [home, dataHome]) rmSync(d, { recursive: true, force: true });
  }
}

function cleanup(r: Run) {
  rmSync(r.project, { recursive: true, force: true });
  rmSync(r.outside, { recursive: true, force: true });
}

const probes = ({ outside, home }: { outside: string; home: string }) => [
  `echo escaped > ${outside}/pwned; echo "write=$?"`,
  `cat ${home}/.ssh/id_ed25519; echo "read=$?"`,
  'curl -sS -f --max-time 10 -o /dev/null http://not-allowed.example.net/; echo "net=$?"',
  'env',
  'echo inside > inside.txt && cd sub && echo "cwd=$(pwd)"',
  'echo "still=$(pwd)"',
];

function expectContained(r: Run) {
  const [write, read, net, env, inside, still] = r.outputs;
  // Writing outside the project fails, and nothing appears there.
  expect(write).toMatch(/Read-only file system|Permission denied/);
  expect(write).toContain('write=1');
  expect(existsSync(path.join(r.outside, 'pwned'))).toBe(false);
  // ~/.ssh is not readable.
  expect(read).not.toContain(SECRET);
  expect(read).toMatch(/read=[1-9]/);
  // A domain not allowed is refused by the sandbox's proxy.
  expect(net).toContain('403');
  expect(net).toMatch(/net=[1-9]/);
  // No API key or other secret reaches a command.
  expect(env).toContain('PATH=');
  expect(env).not.toMatch(/ANTHROPIC_API_KEY|sk-ant-test-secret-key|GITHUB_TOKEN|ghp-test-token/);
  // The project is writable, and a `cd` carries over to the next command.
  expect(inside).toContain(`cwd=${path.join(r.project, 'sub')}`);
  expect(existsSync(path.join(r.project, 'inside.txt'))).toBe(true);
  expect(still).toContain(`still=${path.join(r.project, 'sub')}`);
}

test('bypassPermissions with the sandbox on: writing outside the project, reading ~/.ssh and a request to a domain not allowed all fail', async () => {
  const r = await runCommands(probes, { args: ['--permission-mode', 'bypassPermissions'] });
  try {
    expect(r.denied).toEqual([]);
    expectContained(r);
  } finally {
    cleanup(r);
  }
});

test('default mode with autoAllowBashIfSandboxed: sandboxed commands run without asking, and the same three fail', async () => {
  const r = await runCommands(probes, {
    args: ['--permission-mode', 'default'],
    settings: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } },
  });
  try {
    expect(r.denied).toEqual([]);
    expectContained(r);
  } finally {
    cleanup(r);
  }
});

test('an allowed domain goes through the proxy (not refused), and Read deny rules are unreadable to commands too', async () => {
  // The engine refuses a read it can see (`cat private/plan.txt`); one it cannot (a program reading the
  // file itself) meets the sandbox, which holds the same paths unreadable.
  const r = await runCommands(
    () => [
      'curl -sS --max-time 10 -o /dev/null -w "code=%{http_code}" http://allowed.example.net/; echo " net=$?"',
      'cat private/plan.txt; echo "read=$?"',
      `sh -c 'cat private/p*'; echo "read=$?"`,
      'cat .env.local; echo "env=$?"',
      'cat notes.txt',
    ],
    {
      args: ['--permission-mode', 'bypassPermissions'],
      settings: {
        permissions: { deny: ['Read(private/**)'] },
        sandbox: { network: { allowedDomains: ['allowed.example.net'] } },
      },
      files: {
        'private/plan.txt': 'top secret plan\n',
        '.env.local': 'TOKEN=1\n',
        'notes.txt': 'public notes\n',
      },
    },
  );
  try {
    const [net, seen, unseen, dotenv, notes] = r.outputs;
    // Offline here the proxy answers 502 (it tried); online the request succeeds. Never 403.
    expect(net).not.toContain('403');
    expect(seen).toContain('denied by the rule Read(private/**)');
    expect(unseen).toMatch(/read=[1-9]/);
    expect(unseen).not.toContain('top secret plan');
    expect(dotenv).toMatch(/env=[1-9]/);
    expect(notes).toContain('public notes');
  } finally {
    cleanup(r);
  }
});

test('where the sandbox cannot start, -p says so and every command that is not read-only is refused', async () => {
  const r = await runCommands(() => ['echo hello > made.txt', 'ls'], {
    args: ['--permission-mode', 'default'],
    settings: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } },
    env: { CARAPACE_BWRAP: '/nonexistent/bwrap' },
  });
  try {
    expect(r.stderr).toContain('without the OS sandbox (bubblewrap was not found at /nonexistent/bwrap)');
    expect(r.denied).toEqual(['echo hello > made.txt']);
    expect(existsSync(path.join(r.project, 'made.txt'))).toBe(false);
    expect(r.outputs[1]).toContain('sub');
  } finally {
    cleanup(r);
  }
});
