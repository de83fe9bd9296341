import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RecordedRequest } from '../devtools/scripted-api/request';
import { contentText, lastUserText } from '../devtools/scripted-api/request';
import { scenarioResponder } from '../devtools/scripted-api/responder';
import { parseScenario, type ScenarioInput } from '../devtools/scripted-api/scenario';
import { startScriptedApi, type ScriptedApi } from '../devtools/scripted-api/server';
import { text, toolUse } from '../test-support/engine';
import { tempDir } from '../test-support/temp';
import { installPlugin, setPluginEnabled } from '../harness/plugins/registry';
import { capturePrint, printEnv } from '../test-support/print-run';

/*
 * Skills through `carapace -p` against the scripted Messages API: a skill is offered by name and
 * description in the Skill tool, its body reaches the model when used, its allowed-tools need no
 * approval while it runs, and the shipped review skill's three reviewers run at the same time.
 */

type Steps = ScenarioInput['steps'];

async function setup(steps: Steps, watch?: (request: RecordedRequest, api: ScriptedApi) => void) {
  const respond = scenarioResponder(
    parseScenario({ steps: [...steps, { times: true, reply: { content: [text('Done.')] } }] }),
  );
  // Assigned at once below; the responder runs only for requests, which come after.
  let api: ScriptedApi | null = null;
  api = await startScriptedApi({
    scenario: (request) => {
      if (api) watch?.(request, api);
      return respond(request);
    },
  });
  const server = api;
  onTestFinished(() => server.close());
  const home = tempDir('carapace-skills-home-');
  const project = realpathSync(tempDir('carapace-skills-project-'));
  const env = printEnv(home, server.url);
  const run = async (prompt: string) => {
    const { code, out, err } = await capturePrint(
      ['-p', prompt, '--model', 'claude-sonnet-4-5', '--output-format', 'json'],
      { env, cwd: project },
    );
    return { code, result: JSON.parse(out) as Record<string, unknown>, stderr: err };
  };
  const skill = (root: string, name: string, text: string) => {
    mkdirSync(path.join(root, name), { recursive: true });
    writeFileSync(path.join(root, name, 'SKILL.md'), text);
    return path.join(root, name);
  };
  return {
    api: server,
    home,
    project,
    run,
    projectSkill: (name: string, text: string) => skill(path.join(project, '.claude', 'skills'), name, text),
    userSkill: (name: string, text: string) => skill(path.join(home, '.claude', 'skills'), name, text),
  };
}

const skillTool = (r: RecordedRequest) =>
  (r.body.tools as { name: string; description?: string }[] | undefined)?.find((t) => t.name === 'Skill');
/** The text of the request's last user message that came from tool results. */
const lastText = (r: RecordedRequest | undefined) => (r ? lastUserText(r.body) : '');

describe('carapace -p with skills', () => {
  it('offers a project skill by name and description, and its body and folder reach the model when used', async () => {
    const s = await setup([
      {
        when: { lastUserText: 'greet the team' },
        reply: { content: [toolUse('Skill', { skill: 'greet', args: 'Ada' })], stop_reason: 'tool_use' },
      },
      { when: { lastUserText: 'Launching skill: greet' }, reply: { content: [text('Hello, Ada.')] } },
    ]);
    const dir = s.projectSkill(
      'greet',
      '---\nname: greet\ndescription: Greets people by name in the house style.\n---\nSAY-HELLO-MARKER to $ARGUMENTS, then read ${CLAUDE_SKILL_DIR}/style.md.\n',
    );
    writeFileSync(path.join(dir, 'style.md'), 'Be brief.');
    const r = await s.run('greet the team');
    expect(r.code).toBe(0);
    expect(r.result['result']).toBe('Hello, Ada.');

    const [first, second] = s.api.requests;
    // Offered: the tool, its listing with the project skill and the shipped one, and no body yet.
    expect(skillTool(first!)?.description).toContain('- greet: Greets people by name in the house style.');
    expect(skillTool(first!)?.description).toMatch(/- review \(args: .*\): Review the current change/);
    expect(JSON.stringify(first!.body)).not.toContain('SAY-HELLO-MARKER');
    // Used: the result says it is loading, gives the base directory, the folder's files, the body.
    const loaded = lastText(second);
    expect(loaded).toContain('Launching skill: greet');
    expect(loaded).toContain(`Base directory for this skill: ${dir}`);
    expect(loaded).toContain('- style.md');
    expect(loaded).toContain(`SAY-HELLO-MARKER to Ada, then read ${dir}/style.md.`);
  });

  it('offers an enabled plugin’s skills as plugin:skill and loads them on use; a disabled plugin’s are gone', async () => {
    const s = await setup([
      {
        when: { lastUserText: 'lint it' },
        reply: { content: [toolUse('Skill', { skill: 'tools:lint' })], stop_reason: 'tool_use' },
      },
      { when: { lastUserText: 'Launching skill: tools:lint' }, reply: { content: [text('Linted.')] } },
    ]);
    const root = tempDir('carapace-plugin-');
    mkdirSync(path.join(root, '.claude-plugin'), { recursive: true });
    writeFileSync(path.join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'tools' }));
    mkdirSync(path.join(root, 'skills', 'lint'), { recursive: true });
    writeFileSync(
      path.join(root, 'skills', 'lint', 'SKILL.md'),
      '---\ndescription: Lints the project.\n---\nPLUGIN-LINT-BODY\n',
    );
    const installed = installPlugin(s.home, root).folder;
    const r = await s.run('lint it');
    expect(r.result['result']).toBe('Linted.');
    expect(skillTool(s.api.requests[0]!)?.description).toContain('- tools:lint: Lints the project.');
    expect(lastText(s.api.requests[1])).toContain('PLUGIN-LINT-BODY');
    expect(lastText(s.api.requests[1])).toContain(
      `Base directory for this skill: ${path.join(installed, 'skills', 'lint')}`,
    );

    // Its agent is offered as plugin:agent and runs with the plugin file's prompt and tools; a
    // definition whose tools leave out Skill gets no Skill tool.
    const agents = await setup([
      {
        when: { lastUserText: 'check it' },
        reply: {
          content: [
            toolUse('Agent', { description: 'Check', prompt: 'CHECK-TASK', subagent_type: 'tools:checker' }),
          ],
          stop_reason: 'tool_use',
        },
      },
      { when: { lastUserText: 'CHECK-TASK' }, reply: { content: [text('checked: fine')] } },
    ]);
    mkdirSync(path.join(root, 'agents'), { recursive: true });
    writeFileSync(
      path.join(root, 'agents', 'checker.md'),
      '---\nname: checker\ndescription: Checks things.\ntools: Read, Grep\n---\nPLUGIN-CHECKER-PROMPT\n',
    );
    installPlugin(agents.home, root);
    expect((await agents.run('check it')).result['result']).toBe('Done.');
    const agentTool = (agents.api.requests[0]!.body.tools as { name: string; description?: string }[]).find(
      (t) => t.name === 'Agent',
    );
    expect(agentTool?.description).toContain('- tools:checker: Checks things.');
    const sub = agents.api.requests.find(
      (q) => lastText(q).includes('CHECK-TASK') && !lastText(q).includes('checked'),
    );
    expect(JSON.stringify(sub?.body.system)).toContain('PLUGIN-CHECKER-PROMPT');
    expect((sub?.body.tools ?? []).map((t) => t.name).sort()).toEqual(['Grep', 'Read']);

    setPluginEnabled(s.home, 'tools', false);
    const before = s.api.requests.length;
    await s.run('hello');
    expect(skillTool(s.api.requests[before]!)?.description).not.toContain('tools:lint');
  });

  it('reports a broken skill and a skill linked out of the project, and still runs', async () => {
    const s = await setup([{ reply: { content: [text('ok')] } }]);
    s.projectSkill('broken', '---\nname: [oops\n---\nbody\n');
    const outside = tempDir('carapace-skills-outside-');
    writeFileSync(path.join(outside, 'SKILL.md'), '---\ndescription: SECRET-SKILL\n---\nsecret body\n');
    symlinkSync(outside, path.join(s.project, '.claude', 'skills', 'stolen'));
    const r = await s.run('hello');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `carapace: skill ${path.join(s.project, '.claude', 'skills', 'broken', 'SKILL.md')}: Not loaded: its frontmatter is not valid YAML`,
    );
    expect(r.stderr).toContain('Not loaded: it is a link leading outside the project');
    const description = skillTool(s.api.requests[0]!)?.description ?? '';
    expect(description).not.toContain('SECRET-SKILL');
    expect(description).not.toContain('broken');
  });

  it('lets a user skill’s allowed-tools run without approval during its turn; a project skill in an untrusted folder gets none', async () => {
    const writeStep = (file: string) => ({
      when: { lastUserText: 'Launching skill: scribe' },
      reply: {
        content: [toolUse('Write', { file_path: file, content: 'written by the skill' })],
        stop_reason: 'tool_use' as const,
      },
    });
    const useSkill = {
      when: { lastUserText: 'write the note' },
      reply: { content: [toolUse('Skill', { skill: 'scribe' })], stop_reason: 'tool_use' as const },
    };
    const scribe = '---\ndescription: Writes notes.\nallowed-tools: Write\n---\nWrite the note.\n';

    const user = await setup([useSkill, writeStep('NOTE.md')]);
    user.userSkill('scribe', scribe);
    const granted = await user.run('write the note');
    expect(granted.result['permission_denials']).toEqual([]);
    expect(readFileSync(path.join(user.project, 'NOTE.md'), 'utf8')).toBe('written by the skill');
    expect(lastText(user.api.requests[1])).toContain('Pre-approved while it runs: Write');

    const project = await setup([useSkill, writeStep('NOTE.md')]);
    project.projectSkill('scribe', scribe);
    const refused = await project.run('write the note');
    expect(refused.result['permission_denials']).toEqual([expect.objectContaining({ tool_name: 'Write' })]);
    expect(existsSync(path.join(project.project, 'NOTE.md'))).toBe(false);
    expect(lastText(project.api.requests[1])).toContain('Not pre-approved (this project');
  });

  it('the review skill starts its three reviewers in parallel: all three requests are in flight at once', async () => {
    const REVIEWERS = ['REUSE-REVIEW', 'QUALITY-REVIEW', 'EFFICIENCY-REVIEW'];
    const arrived: string[] = [];
    let allArrived!: () => void;
    const three = new Promise<void>((resolve) => (allArrived = resolve));
    const agent = (kind: string, id: string) =>
      toolUse(
        'Agent',
        {
          description: `Review: ${kind.toLowerCase()}`,
          subagent_type: 'general-purpose',
          prompt: `${kind.toUpperCase()}-REVIEW of the diff (git diff HEAD) of src/a.ts. Report file:line — problem — fix.`,
        },
        id,
      );
    const s = await setup(
      [
        {
          when: { lastUserText: 'review my change' },
          reply: { content: [toolUse('Skill', { skill: 'review' })], stop_reason: 'tool_use' },
        },
        {
          when: { lastUserText: 'Launching skill: review' },
          reply: {
            content: [
              text('Starting three reviewers.'),
              agent('Reuse', 'a1'),
              agent('Quality', 'a2'),
              agent('Efficiency', 'a3'),
            ],
            stop_reason: 'tool_use',
          },
        },
        // Each reviewer's reply is held at the gate until all three requests have arrived: run one
        // after another, the first would never finish and the second never start.
        ...REVIEWERS.map((r) => ({
          when: { lastUserText: r },
          reply: { content: [text(`${r}-FINDINGS: none`)], hold: { afterEvents: 0, gate: 'reviewers' } },
        })),
        {
          when: { lastUserText: 'EFFICIENCY-REVIEW-FINDINGS' },
          reply: { content: [text('Merged three reviews: nothing to fix.')] },
        },
      ],
      (request, api) => {
        const which = REVIEWERS.find(
          (r) => lastUserText(request.body).includes(r) && !lastUserText(request.body).includes('FINDINGS'),
        );
        if (!which) return;
        arrived.push(which);
        if (arrived.length === REVIEWERS.length) {
          api.release('reviewers');
          allArrived();
        }
      },
    );
    const running = s.run('review my change');
    // A bound, not a timing: reviewers run one by one would leave the first held for ever.
    let bound: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      three.then(() => 'all three in flight'),
      running.then(() => 'the run ended first'),
      new Promise<string>((resolve) => (bound = setTimeout(() => resolve('timed out'), 30_000))),
    ]);
    clearTimeout(bound);
    expect(
      outcome,
      `the three reviewers did not run at once; reviewer requests that arrived: ${arrived.join(', ') || 'none'}`,
    ).toBe('all three in flight');
    expect([...arrived].sort()).toEqual([...REVIEWERS].sort());
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.result['result']).toBe('Merged three reviews: nothing to fix.');

    // The shipped body reached the model: the phases and the one-message launch it asks for.
    const afterSkill = s.api.requests.find((q) => lastText(q).includes('Launching skill: review'));
    expect(lastText(afterSkill)).toContain('Phase 1: find the change');
    expect(lastText(afterSkill)).toContain('three Agent tool calls side by side');
    expect(lastText(afterSkill)).toContain('Pre-approved while it runs: Bash(git status:*)');
    // Each reviewer had its own context: its prompt, never the others' nor the parent's history.
    for (const name of REVIEWERS) {
      const own = s.api.requests.filter((q) => contentText(q.body.messages?.[0]?.content).includes(name));
      expect(own).toHaveLength(1);
      // A general-purpose reviewer is offered every tool its parent has, Skill among them.
      expect(own[0]?.body.tools?.map((t) => t.name)).toContain('Skill');
      const body = JSON.stringify(own[0]?.body.messages);
      for (const other of REVIEWERS.filter((o) => o !== name)) expect(body).not.toContain(other);
      expect(body).not.toContain('review my change');
    }
    // The merge step saw all three findings in one message.
    const merge = s.api.requests.at(-1);
    for (const name of REVIEWERS) expect(lastText(merge)).toContain(`${name}-FINDINGS: none`);
  }, 90_000);
});
