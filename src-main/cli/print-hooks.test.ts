import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedApi } from '../devtools/scripted-api/server';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { text, toolUse } from '../test-support/engine';
import { capturePrint, printEnv } from '../test-support/print-run';
import { tempDir } from '../test-support/temp';

/*
 * Hooks through `carapace -p` against the scripted Messages API: the project's own
 * .claude/settings.json hooks run in print mode, as in Claude Code.
 */

type StepInput = ScenarioInput['steps'][number];

async function setup(
  hooks: object | null,
  stepsFor: StepInput[] | ((project: string) => StepInput[]),
  extraEnv: Record<string, string> = {},
) {
  const home = tempDir('carapace-hooks-home-');
  const project = realpathSync(tempDir('carapace-hooks-project-'));
  const steps = typeof stepsFor === 'function' ? stepsFor(project) : stepsFor;
  const api = await startScriptedApi({
    scenario: { steps: [...steps, { times: true, reply: { content: [text('Done.')] } }] },
  });
  onTestFinished(() => api.close());
  if (hooks) {
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ hooks }));
  }
  const env = {
    ...printEnv(home, api.url),
    ...extraEnv,
  };
  const run = async (argv: string[]) => {
    const { code, out, err } = await capturePrint(
      [...argv, '--model', 'claude-sonnet-4-5', '--output-format', 'json'],
      { env, cwd: project },
    );
    return { code, result: JSON.parse(out) as Record<string, unknown>, stderr: err };
  };
  const file = (name: string) => path.join(project, name);
  /** The notices the session's transcript holds. */
  const notices = (sessionId: string) => {
    const found = readdirSync(home, { recursive: true, encoding: 'utf8' }).find((f) =>
      f.endsWith(`${sessionId}.jsonl`),
    );
    if (!found) throw new Error(`no transcript for ${sessionId}`);
    return readFileSync(path.join(home, found), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(
        (l) =>
          JSON.parse(l) as {
            type: string;
            item?: { kind: string; code?: string; text: string; level: string };
          },
      )
      .flatMap((l) => (l.type === 'item' && l.item?.kind === 'notice' ? [l.item] : []));
  };
  return { api, project, run, file, notices };
}

const command = (cmd: string, extra: object = {}) => ({ type: 'command', command: cmd, ...extra });
/** The tool_result blocks of a recorded request's last message. */
function toolResults(body: { messages: { content: unknown }[] }): { content: unknown; is_error?: boolean }[] {
  const last = body.messages.at(-1)?.content;
  return Array.isArray(last)
    ? (last as { type: string; content: unknown; is_error?: boolean }[]).filter(
        (b) => b.type === 'tool_result',
      )
    : [];
}
const resultText = (block: { content: unknown } | undefined) =>
  typeof block?.content === 'string' ? block.content : JSON.stringify(block?.content);

describe('carapace -p with hooks', () => {
  it('a PreToolUse hook exiting 2 blocks a Bash call: no side effect, its stderr in the tool_result', async () => {
    const steps = [{ reply: { content: [toolUse('Bash', { command: 'touch made.txt' })] } }];
    // Without the hook, the allowed command does run: the block below is the hook's.
    const control = await setup(null, steps);
    expect((await control.run(['-p', 'go', '--allowedTools', 'Bash'])).code).toBe(0);
    expect(existsSync(control.file('made.txt'))).toBe(true);

    const { api, run, file } = await setup(
      {
        PreToolUse: [
          { matcher: 'Bash', hooks: [command('echo "touching is not allowed here" >&2; exit 2')] },
        ],
      },
      steps,
    );
    const { code, result, stderr } = await run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(code).toBe(0);
    // The project's hooks run in -p, so they are not listed among what an untrusted folder loses.
    expect(stderr).not.toContain('not trusted');
    expect(existsSync(file('made.txt'))).toBe(false);
    const [block] = toolResults(api.requests[1]?.body as never);
    expect(block?.is_error).toBe(true);
    expect(resultText(block)).toContain('touching is not allowed here');
    expect(result['permission_denials']).toHaveLength(1);
  });

  it('a hook reads the event JSON from stdin with the right fields', async () => {
    const { run, file, project } = await setup(
      { PreToolUse: [{ matcher: 'Bash', hooks: [command('cat > "$CLAUDE_PROJECT_DIR/stdin.json"')] }] },
      [{ reply: { content: [toolUse('Bash', { command: 'echo hi' }, 'toolu_1')] } }],
    );
    const { result } = await run(['-p', 'go', '--allowedTools', 'Bash']);
    const input = JSON.parse(readFileSync(file('stdin.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({
      session_id: result['session_id'],
      cwd: project,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'echo hi' },
      tool_use_id: 'toolu_1',
    });
    expect(String(input['transcript_path'])).toMatch(new RegExp(`${String(result['session_id'])}\\.jsonl$`));
  });

  it('PostToolUse runs after an Edit, with the file already changed', async () => {
    const { run, file } = await setup(
      {
        PostToolUse: [
          {
            matcher: 'Edit|Write',
            hooks: [
              command(
                'cat > "$CLAUDE_PROJECT_DIR/post.json"; cat "$CLAUDE_PROJECT_DIR/a.txt" > "$CLAUDE_PROJECT_DIR/seen.txt"',
              ),
            ],
          },
        ],
      },
      [
        { reply: { content: [toolUse('Read', { file_path: 'a.txt' })] } },
        {
          reply: {
            content: [toolUse('Edit', { file_path: 'a.txt', old_string: 'hello', new_string: 'bye' })],
          },
        },
      ],
    );
    writeFileSync(file('a.txt'), 'hello\n');
    expect((await run(['-p', 'edit it', '--allowedTools', 'Edit'])).code).toBe(0);
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('bye\n');
    expect(readFileSync(file('seen.txt'), 'utf8')).toBe('bye\n');
    const post = JSON.parse(readFileSync(file('post.json'), 'utf8')) as Record<string, unknown>;
    expect(post).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Edit' });
    expect(post['tool_input']).toMatchObject({ old_string: 'hello', new_string: 'bye' });
    expect(post).toHaveProperty('tool_response');
  });

  it('UserPromptSubmit stdout reaches the request as context; a block stops the prompt', async () => {
    const { api, run } = await setup(
      { UserPromptSubmit: [{ hooks: [command('echo "Ticket ABC-123 is about the login page."')] }] },
      [],
    );
    await run(['-p', 'fix the ticket']);
    const sent = JSON.stringify(api.requests[0]?.body.messages);
    expect(sent).toContain('fix the ticket');
    expect(sent).toContain('Ticket ABC-123 is about the login page.');

    const blocked = await setup(
      { UserPromptSubmit: [{ hooks: [command('echo "no secrets in prompts" >&2; exit 2')] }] },
      [],
    );
    await blocked.run(['-p', 'my password is hunter2']);
    expect(blocked.api.requests).toHaveLength(0);
  });

  it('SessionStart stdout reaches the first request as context (source startup, then resume); SessionEnd runs at the end', async () => {
    const { api, run, file } = await setup(
      {
        SessionStart: [
          {
            matcher: 'startup|resume',
            hooks: [
              command(
                'cat >> "$CLAUDE_PROJECT_DIR/start.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/start.jsonl"; echo "The codeword is tangerine."',
              ),
            ],
          },
        ],
        SessionEnd: [{ hooks: [command('cat > "$CLAUDE_PROJECT_DIR/end.json"')] }],
      },
      [],
    );
    const first = await run(['-p', 'hello']);
    expect(first.code).toBe(0);
    const sent = JSON.stringify(api.requests[0]?.body.messages);
    expect(sent).toContain('hello');
    expect(sent).toContain('SessionStart hook additional context');
    expect(sent).toContain('The codeword is tangerine.');
    expect(JSON.parse(readFileSync(file('end.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'other',
    });

    await run(['-p', 'again', '--resume', String(first.result['session_id'])]);
    const starts = readFileSync(file('start.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { hook_event_name: string; source: string });
    expect(starts.map((s) => [s.hook_event_name, s.source])).toEqual([
      ['SessionStart', 'startup'],
      ['SessionStart', 'resume'],
    ]);
    // Sent once, with the first prompt of each run: the resumed run's own context is its newest.
    const resumed = JSON.stringify(api.requests.at(-1)?.body.messages);
    expect(resumed.split('The codeword is tangerine.')).toHaveLength(3);
  });

  it('a Stop hook\'s {"decision":"block"} continues the turn once with its reason', async () => {
    const { api, run, file } = await setup(
      {
        Stop: [
          {
            hooks: [
              command(
                'cat >> "$CLAUDE_PROJECT_DIR/stop.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/stop.jsonl"; if [ -f "$CLAUDE_PROJECT_DIR/stopped" ]; then exit 0; fi; touch "$CLAUDE_PROJECT_DIR/stopped"; echo \'{"decision":"block","reason":"run the linter first"}\'',
              ),
            ],
          },
        ],
      },
      [{ reply: { content: [text('First answer.')] } }, { reply: { content: [text('Linted, all clean.')] } }],
    );
    const { result } = await run(['-p', 'do it']);
    expect(api.requests).toHaveLength(2);
    expect(JSON.stringify(api.requests[1]?.body.messages?.at(-1))).toContain('run the linter first');
    expect(result['result']).toBe('Linted, all clean.');
    const inputs = readFileSync(file('stop.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      inputs.map((i) => [i['hook_event_name'], i['stop_hook_active'], i['last_assistant_message']]),
    ).toEqual([
      ['Stop', false, 'First answer.'],
      ['Stop', true, 'Linted, all clean.'],
    ]);
  });

  it('`continue: false` wins: a Stop block with it ends the turn, a PreToolUse hook with it stops the call', async () => {
    const stop = await setup(
      {
        Stop: [
          {
            hooks: [
              command(`echo '{"continue":false,"stopReason":"enough","decision":"block","reason":"more"}'`),
            ],
          },
        ],
      },
      [{ reply: { content: [text('First answer.')] } }],
    );
    await stop.run(['-p', 'do it']);
    expect(stop.api.requests).toHaveLength(1);

    const pre = await setup(
      {
        PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo '{"continue":false,"stopReason":"halt"}'`)] }],
      },
      [{ reply: { content: [toolUse('Bash', { command: 'touch z.txt' })] } }],
    );
    await pre.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(existsSync(pre.file('z.txt'))).toBe(false);
    expect(resultText(toolResults(pre.api.requests[1]?.body as never)[0])).toContain('halt');
  });

  it('PreToolUse additionalContext reaches the model next to the tool_result; PostToolUseFailure gets the error', async () => {
    const ctx = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'The build uses pnpm.' },
    });
    const { api, run, file } = await setup(
      {
        PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo '${ctx}'`)] }],
        PostToolUseFailure: [
          { matcher: 'Bash', hooks: [command('cat > "$CLAUDE_PROJECT_DIR/failure.json"')] },
        ],
      },
      [
        { reply: { content: [toolUse('Bash', { command: 'echo ok' })] } },
        { reply: { content: [toolUse('Bash', { command: 'echo broken >&2; exit 3' })] } },
      ],
    );
    await run(['-p', 'go', '--allowedTools', 'Bash']);
    const first = resultText(toolResults(api.requests[1]?.body as never)[0]);
    expect(first).toContain('ok');
    expect(first).toContain('The build uses pnpm.');
    const failure = JSON.parse(readFileSync(file('failure.json'), 'utf8')) as Record<string, unknown>;
    expect(failure).toMatchObject({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash' });
    expect(String(failure['error'])).toContain('broken');
  });

  it('each hook run is a note in the transcript: event, command, outcome, duration; failures stand out', async () => {
    const { run, notices } = await setup(
      {
        PreToolUse: [{ matcher: 'Bash', hooks: [command('exit 0')] }],
        PostToolUse: [{ matcher: 'Bash', hooks: [command('echo oops >&2; exit 1')] }],
        Stop: [{ hooks: [command('true')] }],
      },
      [{ reply: { content: [toolUse('Bash', { command: 'echo hi' })] } }],
    );
    const { result } = await run(['-p', 'go', '--allowedTools', 'Bash']);
    const hookNotes = notices(String(result['session_id'])).filter((n) => n.code === 'hook');
    expect(hookNotes.map((n) => [n.level, n.text.replace(/\d+ ms$/, 'N ms')])).toEqual([
      ['info', 'PreToolUse hook (Bash): exit 0 — ok, N ms'],
      ['warning', 'PostToolUse hook (Bash): echo oops >&2; exit 1 — exited with 1: oops, N ms'],
      ['info', 'Stop hook: true — ok, N ms'],
    ]);
  });

  it('permissionDecision "deny" denies the call, with its reason in the tool_result', async () => {
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'use the build script instead',
      },
    });
    const { api, run, file } = await setup(
      { PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo '${deny}'`)] }] },
      [{ reply: { content: [toolUse('Bash', { command: 'touch built.txt' })] } }],
    );
    const { result } = await run(['-p', 'build', '--allowedTools', 'Bash']);
    expect(existsSync(file('built.txt'))).toBe(false);
    expect(resultText(toolResults(api.requests[1]?.body as never)[0])).toContain(
      'use the build script instead',
    );
    expect(result['permission_denials']).toHaveLength(1);
  });

  it("a PreToolUse hook's updatedInput replaces the call's input, and the rules judge the new input", async () => {
    const update = (command: string, decision: object = { permissionDecision: 'allow' }) =>
      JSON.stringify({ hookSpecificOutput: { ...decision, updatedInput: { command } } });
    const { run, file } = await setup(
      { PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo '${update('touch changed.txt')}'`)] }] },
      [{ reply: { content: [toolUse('Bash', { command: 'touch original.txt' })] } }],
    );
    await run(['-p', 'go', '--allowedTools', 'Bash(touch:*)']);
    expect(existsSync(file('changed.txt'))).toBe(true);
    expect(existsSync(file('original.txt'))).toBe(false);

    // A replacement the rules do not allow, without the hook's allow, is refused like any call.
    const denied = await setup(
      { PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo '${update('rm -f kept.txt', {})}'`)] }] },
      [{ reply: { content: [toolUse('Bash', { command: 'touch x.txt' })] } }],
    );
    writeFileSync(denied.file('kept.txt'), '');
    const { result } = await denied.run(['-p', 'go', '--allowedTools', 'Bash(touch:*)']);
    expect(existsSync(denied.file('kept.txt'))).toBe(true);
    expect(result['permission_denials']).toHaveLength(1);

    // With the hook's allow, a replacement that writes outside the project is still refused.
    const outsideDir = realpathSync(tempDir('carapace-hooks-outside-'));
    const outside = await setup(
      {
        PreToolUse: [
          { matcher: 'Bash', hooks: [command(`echo '${update(`touch ${outsideDir}/escaped.txt`)}'`)] },
        ],
      },
      [{ reply: { content: [toolUse('Bash', { command: 'touch inside.txt' })] } }],
    );
    await outside.run(['-p', 'go', '--allowedTools', 'Bash(touch:*)']);
    expect(existsSync(path.join(outsideDir, 'escaped.txt'))).toBe(false);
    expect(existsSync(outside.file('inside.txt'))).toBe(false);

    // A replacement that does not fit the tool's input schema is an input error, and nothing runs.
    const bad = await setup(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [command(`echo '{"hookSpecificOutput":{"updatedInput":{"command":5}}}'`)],
          },
        ],
      },
      [{ reply: { content: [toolUse('Bash', { command: 'touch y.txt' })] } }],
    );
    await bad.run(['-p', 'go', '--allowedTools', 'Bash(touch:*)']);
    expect(existsSync(bad.file('y.txt'))).toBe(false);
    expect(resultText(toolResults(bad.api.requests[1]?.body as never)[0])).toMatch(/InputValidationError/);
  });

  it('an `if: "Bash(git *)"` hook skips `ls` and runs for `git`', async () => {
    const { run, file } = await setup(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              command('cat >> "$CLAUDE_PROJECT_DIR/ran.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/ran.jsonl"', {
                if: 'Bash(git *)',
              }),
            ],
          },
        ],
      },
      [
        { reply: { content: [toolUse('Bash', { command: 'ls' })] } },
        { reply: { content: [toolUse('Bash', { command: 'git --version' })] } },
      ],
    );
    await run(['-p', 'look', '--allowedTools', 'Bash']);
    const lines = readFileSync(file('ran.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ tool_input: { command: 'git --version' } });
  });

  it('an http hook gets the POST; its $SECRET header is filled only when allowed', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    onTestFinished(() => void server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const http = (pathName: string, allowed: string[]) => ({
      type: 'http',
      url: `${url}${pathName}`,
      headers: { authorization: 'Bearer $SECRET' },
      allowedEnvVars: allowed,
    });
    const { run } = await setup(
      { UserPromptSubmit: [{ hooks: [http('/allowed', ['SECRET']), http('/not-allowed', [])] }] },
      [],
      { SECRET: 's3cret-value' },
    );
    await run(['-p', 'hello']);
    expect(seen).toHaveLength(2);
    const auth = (p: string) => seen.find((s) => s.url === p)?.headers['authorization'];
    expect(auth('/allowed')).toBe('Bearer s3cret-value');
    expect(auth('/not-allowed')).toBe('Bearer');
    expect(JSON.parse(seen[0]?.body ?? '')).toMatchObject({
      hook_event_name: 'UserPromptSubmit',
      prompt: 'hello',
    });
  });
  it('a project hook answering allow cannot write .claude/settings.json or .git/hooks/x; an ordinary Write it allows runs', async () => {
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
    });
    const { api, run, file } = await setup(
      { PreToolUse: [{ matcher: 'Write', hooks: [command(`echo '${allow}'`)] }] },
      (project) => [
        {
          reply: {
            content: [
              toolUse(
                'Write',
                {
                  file_path: path.join(project, '.claude', 'settings.json'),
                  content: '{"permissions":{"allow":["Bash"]}}',
                },
                'toolu_s',
              ),
              toolUse(
                'Write',
                { file_path: path.join(project, '.git', 'hooks', 'x'), content: 'evil' },
                'toolu_g',
              ),
              toolUse('Write', { file_path: path.join(project, 'notes.txt'), content: 'fine' }, 'toolu_n'),
            ],
          },
        },
      ],
    );
    const before = readFileSync(file('.claude/settings.json'), 'utf8');
    const { result } = await run(['-p', 'go']);
    expect(readFileSync(file('.claude/settings.json'), 'utf8')).toBe(before);
    expect(existsSync(file('.git/hooks/x'))).toBe(false);
    // -p shows no dialog: without the hook this Write would be refused too; the hook's allow skips it.
    expect(readFileSync(file('notes.txt'), 'utf8')).toBe('fine');
    expect(result['permission_denials']).toHaveLength(2);
    const results = toolResults(api.requests[1]?.body as never);
    expect(resultText(results[0])).toMatch(/protected path/);
  });

  it('PermissionRequest hooks answer the dialog -p cannot show: allow runs the call, deny refuses it with its message', async () => {
    const answer = (behavior: string, message = '') =>
      JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior, message } },
      });
    const steps = [{ reply: { content: [toolUse('Bash', { command: 'touch made.txt' }, 'toolu_p')] } }];
    const allowed = await setup(
      {
        PermissionRequest: [
          {
            matcher: 'Bash',
            hooks: [command(`cat > "$CLAUDE_PROJECT_DIR/req.json"; echo '${answer('allow')}'`)],
          },
        ],
      },
      steps,
    );
    await allowed.run(['-p', 'go']);
    expect(existsSync(allowed.file('made.txt'))).toBe(true);
    const input = JSON.parse(readFileSync(allowed.file('req.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'touch made.txt' },
    });
    expect(input['tool_use_id']).toBeUndefined();
    expect(Array.isArray(input['permission_suggestions'])).toBe(true);

    const denied = await setup(
      {
        PermissionRequest: [
          { matcher: 'Bash', hooks: [command(`echo '${answer('deny', 'not on Fridays')}'`)] },
        ],
      },
      steps,
    );
    const { result } = await denied.run(['-p', 'go']);
    expect(existsSync(denied.file('made.txt'))).toBe(false);
    expect(result['permission_denials']).toHaveLength(1);
    expect(resultText(toolResults(denied.api.requests[1]?.body as never)[0])).toContain('not on Fridays');

    // Exit 2 does not answer a permission request: the call is refused only because nobody answered.
    const exit2 = await setup({ PermissionRequest: [{ hooks: [command('exit 2')] }] }, steps);
    await exit2.run(['-p', 'go']);
    expect(existsSync(exit2.file('made.txt'))).toBe(false);
    expect(resultText(toolResults(exit2.api.requests[1]?.body as never)[0])).toMatch(
      /nobody can be asked here and no PermissionRequest hook answered/,
    );
  });

  it('a PreToolUse "ask" forces the dialog for a call the rules allow; -p refuses it unless a PermissionRequest hook allows', async () => {
    const ask = JSON.stringify({
      hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'double-check' },
    });
    const steps = [{ reply: { content: [toolUse('Bash', { command: 'touch made.txt' })] } }];
    const asked = await setup(
      { PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo '${ask}'`)] }] },
      steps,
    );
    const { result } = await asked.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(existsSync(asked.file('made.txt'))).toBe(false);
    expect(result['permission_denials']).toHaveLength(1);
    expect(resultText(toolResults(asked.api.requests[1]?.body as never)[0])).toMatch(
      /asks first: double-check/,
    );
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    const answered = await setup(
      {
        PreToolUse: [{ matcher: 'Bash', hooks: [command(`echo '${ask}'`)] }],
        PermissionRequest: [{ matcher: 'Bash', hooks: [command(`echo '${allow}'`)] }],
      },
      steps,
    );
    await answered.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(existsSync(answered.file('made.txt'))).toBe(true);
  });
  it('a prompt hook asks the small model with $ARGUMENTS filled in; {"ok":false} blocks like exit 2, {"ok":true} lets the call run', async () => {
    const prompt = { type: 'prompt', prompt: 'Is this call safe? $ARGUMENTS' };
    const verdict = (answer: object): StepInput => ({
      when: { systemText: 'You are evaluating a hook' },
      reply: { content: [text(JSON.stringify(answer))] },
    });
    const bash = { reply: { content: [toolUse('Bash', { command: 'touch made.txt' }, 'toolu_q')] } };
    const blocked = await setup({ PreToolUse: [{ matcher: 'Bash', hooks: [prompt] }] }, [
      verdict({ ok: false, reason: 'touching files is not allowed today' }),
      bash,
    ]);
    await blocked.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(existsSync(blocked.file('made.txt'))).toBe(false);
    const asked = blocked.api.requests.find((r) => JSON.stringify(r.body).includes('Is this call safe?'));
    const body = asked?.body as { model: string; messages: { content: unknown }[] };
    expect(body.model).toBe('claude-haiku-4-5');
    const sent = JSON.stringify(body.messages[0]?.content);
    expect(sent).toContain('hook_event_name');
    expect(sent).toContain('touch made.txt');
    expect(sent).not.toContain('$ARGUMENTS');
    const main = blocked.api.requests.filter((r) => !JSON.stringify(r.body).includes('Is this call safe?'));
    expect(resultText(toolResults(main[1]?.body as never)[0])).toContain(
      'touching files is not allowed today',
    );

    const allowed = await setup({ PreToolUse: [{ matcher: 'Bash', hooks: [prompt] }] }, [
      verdict({ ok: true }),
      bash,
    ]);
    await allowed.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(existsSync(allowed.file('made.txt'))).toBe(true);

    // An answer that is not the {ok} JSON decides nothing: the call runs, and the problem is reported.
    const garbled = await setup({ PreToolUse: [{ matcher: 'Bash', hooks: [prompt] }] }, [
      { when: { systemText: 'You are evaluating a hook' }, reply: { content: [text('sure, why not')] } },
      bash,
    ]);
    const g = await garbled.run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(existsSync(garbled.file('made.txt'))).toBe(true);
    expect(g.stderr).toMatch(/not JSON/);
  });

  it('a prompt hook that does not answer within its timeout decides nothing', async () => {
    const { run, file, api } = await setup(
      {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'Safe? $ARGUMENTS', timeout: 1 }] },
        ],
      },
      [
        {
          when: { systemText: 'You are evaluating a hook' },
          reply: { content: [text('{"ok":false,"reason":"too late"}')], delayMs: 400 },
        },
        { reply: { content: [toolUse('Bash', { command: 'touch made.txt' })] } },
      ],
    );
    const { stderr } = await run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(stderr).toMatch(/PreToolUse hook \(Safe\? \$ARGUMENTS\): no answer within 1 s/);
    expect(existsSync(file('made.txt'))).toBe(true);
    expect(api.requests.some((r) => JSON.stringify(r.body).includes('Safe?'))).toBe(true);
  });

  it('an agent hook runs a read-only sub-agent that checks the project, and its {"ok":false} blocks', async () => {
    const verifier = { systemText: 'You verify a condition for a hook' };
    const { api, run, file } = await setup(
      {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Only if CHANGELOG.md exists. $ARGUMENTS' }] },
        ],
      },
      (project) => [
        // The verifier tries to write (refused: it has no Write tool), then reads, then answers.
        {
          when: verifier,
          reply: {
            content: [
              toolUse('Write', { file_path: path.join(project, 'evil.txt'), content: 'x' }, 'toolu_w'),
            ],
          },
        },
        { when: verifier, reply: { content: [toolUse('Glob', { pattern: 'CHANGELOG.md' }, 'toolu_g')] } },
        { when: verifier, reply: { content: [text('{"ok": false, "reason": "CHANGELOG.md is missing"}')] } },
        { reply: { content: [toolUse('Bash', { command: 'touch made.txt' })] } },
      ],
    );
    await run(['-p', 'go', '--allowedTools', 'Bash']);
    expect(existsSync(file('made.txt'))).toBe(false);
    expect(existsSync(file('evil.txt'))).toBe(false);
    const verifierRequests = api.requests.filter((r) =>
      JSON.stringify(r.body).includes('You verify a condition'),
    );
    expect(verifierRequests.length).toBe(3);
    const tools =
      (verifierRequests[0]?.body as { tools?: { name: string }[] }).tools?.map((t) => t.name) ?? [];
    expect(tools.sort()).toEqual(['Glob', 'Grep', 'Read']);
    const main = api.requests.filter((r) => !verifierRequests.includes(r));
    expect(resultText(toolResults(main[1]?.body as never)[0])).toContain('CHANGELOG.md is missing');
  });
  it('SubagentStart gives the sub-agent context; SubagentStop (matched on its type) keeps it going once with its reason', async () => {
    const start = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'The password is swordfish.' },
    });
    // Blocks the first stop only (it leaves a marker), as a real "check once more" hook would.
    const stop =
      'cat >> "$CLAUDE_PROJECT_DIR/stop.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/stop.jsonl"; ' +
      'if [ ! -e "$CLAUDE_PROJECT_DIR/once" ]; then touch "$CLAUDE_PROJECT_DIR/once"; echo "run the tests first" >&2; exit 2; fi';
    const { api, run, file } = await setup(
      {
        SubagentStart: [
          {
            matcher: 'general-purpose',
            hooks: [command(`cat > "$CLAUDE_PROJECT_DIR/start.json"; echo '${start}'`)],
          },
        ],
        SubagentStop: [
          { matcher: 'Explore', hooks: [command('echo never >> "$CLAUDE_PROJECT_DIR/wrong-type"')] },
          { matcher: 'general-purpose', hooks: [command(stop)] },
        ],
      },
      [
        {
          reply: {
            content: [
              toolUse(
                'Agent',
                { prompt: 'Look around.', description: 'look', subagent_type: 'general-purpose' },
                'toolu_a',
              ),
            ],
          },
        },
        { reply: { content: [text('Sub-agent: first answer.')] } },
        { reply: { content: [text('Sub-agent: tests run, second answer.')] } },
      ],
    );
    await run(['-p', 'delegate']);
    const startInput = JSON.parse(readFileSync(file('start.json'), 'utf8')) as Record<string, unknown>;
    expect(startInput).toMatchObject({ hook_event_name: 'SubagentStart', agent_type: 'general-purpose' });
    expect(String(startInput['agent_id'])).toMatch(/^agent-/);
    // The sub-agent's first request carries the context with its prompt.
    expect(JSON.stringify(api.requests[1]?.body)).toContain('The password is swordfish.');
    const stops = readFileSync(file('stop.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(stops).toHaveLength(2);
    expect(stops[0]).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_type: 'general-purpose',
      agent_id: startInput['agent_id'],
      stop_hook_active: false,
      last_assistant_message: 'Sub-agent: first answer.',
    });
    expect(String(stops[0]?.['agent_transcript_path'])).toMatch(/subagents\/agent-.*\.jsonl$/);
    expect(stops[1]).toMatchObject({ stop_hook_active: true });
    // The block's reason reached the sub-agent, and its final answer is the second one.
    expect(JSON.stringify(api.requests[2]?.body)).toContain('run the tests first');
    expect(JSON.stringify(api.requests[3]?.body)).toContain('second answer');
    expect(existsSync(file('wrong-type'))).toBe(false);
  });
  it('PreCompact (matcher "manual") adds instructions to /compact and PostCompact gets the summary; a PreCompact block stops it', async () => {
    const pre = 'cat > "$CLAUDE_PROJECT_DIR/pre.json"; echo "Keep every codeword verbatim."';
    const post = 'cat > "$CLAUDE_PROJECT_DIR/post.json"';
    const { api, run, file } = await setup(
      {
        PreCompact: [
          { matcher: 'auto', hooks: [command('touch "$CLAUDE_PROJECT_DIR/auto-ran"')] },
          { matcher: 'manual', hooks: [command(pre)] },
        ],
        PostCompact: [{ matcher: 'manual', hooks: [command(post)] }],
        SessionStart: [{ matcher: 'compact', hooks: [command('cat > "$CLAUDE_PROJECT_DIR/after.json"')] }],
      },
      [
        { reply: { content: [text('Noted: the codeword is kiwi.')] } },
        { reply: { content: [text('<summary>The person said the codeword is kiwi.</summary>')] } },
      ],
    );
    const first = await run(['-p', 'the codeword is kiwi']);
    await run(['-p', '/compact keep the API notes', '--resume', String(first.result['session_id'])]);
    expect(JSON.parse(readFileSync(file('pre.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'keep the API notes',
    });
    const ask = JSON.stringify(api.requests[1]?.body);
    expect(ask).toContain('keep the API notes');
    expect(ask).toContain('Keep every codeword verbatim.');
    expect(JSON.parse(readFileSync(file('post.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'PostCompact',
      trigger: 'manual',
    });
    expect(
      String(
        (JSON.parse(readFileSync(file('post.json'), 'utf8')) as Record<string, unknown>)['compact_summary'],
      ),
    ).toContain('codeword is kiwi');
    expect(existsSync(file('auto-ran'))).toBe(false);
    // The session goes on from the summary: SessionStart with source compact.
    expect(JSON.parse(readFileSync(file('after.json'), 'utf8'))).toMatchObject({ source: 'compact' });

    const blocked = await setup(
      { PreCompact: [{ hooks: [command('echo "not during the release" >&2; exit 2')] }] },
      [{ reply: { content: [text('Noted.')] } }],
    );
    const b1 = await blocked.run(['-p', 'hello']);
    const b2 = await blocked.run(['-p', '/compact', '--resume', String(b1.result['session_id'])]);
    // No summary request was sent; the run reports the block.
    expect(blocked.api.requests).toHaveLength(1);
    expect(b2.result['is_error']).toBe(true);
    expect(JSON.stringify(b2.result)).toContain('not during the release');
  });
  it('PreCompact (matcher "auto") runs before an automatic compaction: its output joins the instructions, its block skips it', async () => {
    // A reply that filled the context: the next request compacts first.
    const FULL = { input_tokens: 150_000, cache_read_input_tokens: 20_000, output_tokens: 50 };
    const steps: StepInput[] = [
      { reply: { content: [text('First answer.')], usage: FULL } },
      {
        when: { lastUserPattern: 'Also: ' },
        reply: { content: [text('<summary>Earlier: a first question.</summary>')] },
      },
    ];
    const auto = await setup(
      {
        PreCompact: [
          {
            matcher: 'auto',
            hooks: [command('cat > "$CLAUDE_PROJECT_DIR/pre.json"; echo "Mention the release date."')],
          },
        ],
        PostCompact: [{ matcher: 'auto', hooks: [command('cat > "$CLAUDE_PROJECT_DIR/post.json"')] }],
      },
      steps,
    );
    const first = await auto.run(['-p', 'first question']);
    await auto.run(['-p', 'second question', '--resume', String(first.result['session_id'])]);
    expect(JSON.parse(readFileSync(auto.file('pre.json'), 'utf8'))).toMatchObject({
      trigger: 'auto',
      custom_instructions: '',
    });
    expect(
      auto.api.requests.some((r) => JSON.stringify(r.body).includes('Also: Mention the release date.')),
    ).toBe(true);
    expect(JSON.parse(readFileSync(auto.file('post.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'PostCompact',
      trigger: 'auto',
      compact_summary: expect.stringContaining('Earlier: a first question.') as unknown,
    });

    const blocked = await setup({ PreCompact: [{ matcher: 'auto', hooks: [command('exit 2')] }] }, steps);
    const b1 = await blocked.run(['-p', 'first question']);
    await blocked.run(['-p', 'second question', '--resume', String(b1.result['session_id'])]);
    // No summary request: the turn went on uncompacted.
    expect(blocked.api.requests).toHaveLength(2);
    expect(JSON.stringify(blocked.api.requests[1]?.body)).toContain('First answer.');
  });
  it("a sub-agent's tool events carry its agent_id and agent_type; the main agent's do not", async () => {
    const { run, file } = await setup(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              command('cat >> "$CLAUDE_PROJECT_DIR/pre.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/pre.jsonl"'),
            ],
          },
        ],
      },
      [
        {
          reply: {
            content: [
              toolUse(
                'Agent',
                { prompt: 'List.', description: 'list', subagent_type: 'general-purpose' },
                'toolu_a',
              ),
            ],
          },
        },
        { reply: { content: [toolUse('Bash', { command: 'ls' }, 'toolu_sub')] } },
        { reply: { content: [text('Listed.')] } },
        { reply: { content: [toolUse('Bash', { command: 'pwd' }, 'toolu_main')] } },
      ],
    );
    await run(['-p', 'delegate', '--allowedTools', 'Bash']);
    const inputs = readFileSync(file('pre.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const sub = inputs.find((i) => i['tool_use_id'] === 'toolu_sub');
    const main = inputs.find((i) => i['tool_use_id'] === 'toolu_main');
    expect(sub).toMatchObject({ agent_type: 'general-purpose' });
    expect(String(sub?.['agent_id'])).toMatch(/^agent-/);
    expect(main).toBeDefined();
    expect(main?.['agent_id']).toBeUndefined();
  });
  it('a Stop prompt hook answering {"ok":false} keeps the turn going with its reason; {"ok":true} lets it end', async () => {
    const judge = { systemText: 'You are evaluating a hook' };
    const { api, run } = await setup(
      { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Did the agent run the tests? $ARGUMENTS' }] }] },
      [
        {
          when: judge,
          reply: { content: [text('{"ok": false, "reason": "Run the tests before stopping."}')] },
        },
        { when: judge, reply: { content: [text('{"ok": true}')] } },
        { reply: { content: [text('All done.')] } },
        { reply: { content: [text('Tests run; done now.')] } },
      ],
    );
    const { result } = await run(['-p', 'fix it']);
    expect(result['result']).toBe('Tests run; done now.');
    const judged = api.requests.filter((r) =>
      JSON.stringify(r.body).includes('Did the agent run the tests?'),
    );
    expect(judged).toHaveLength(2);
    expect(JSON.stringify(judged[0]?.body)).toContain('All done.');
    const main = api.requests.filter((r) => !judged.includes(r));
    expect(JSON.stringify(main[1]?.body)).toContain('Run the tests before stopping.');
  });
});
