import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCarapace } from '../../test-support/carapace';

/** Waits (polling, no fixed sleep) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}

describe('an agent created in Settings → Agents', () => {
  it('is offered to a new session’s Agent tool and runs with its own prompt', async () => {
    const t = await testCarapace({
      steps: [
        {
          when: { lastUserText: 'ask the reviewer' },
          reply: {
            content: [
              {
                type: 'tool_use',
                id: 'tu1',
                name: 'Agent',
                input: { description: 'Review', prompt: 'CHILD task', subagent_type: 'reviewer' },
              },
            ],
            stop_reason: 'tool_use',
          },
        },
        // Answered only when the request's system prompt is the new file's body.
        {
          when: { systemText: 'REVIEWER-PROMPT-BODY' },
          reply: { content: [{ type: 'text', text: 'reviewed: fine' }] },
        },
        {
          when: { lastUserText: 'reviewed: fine' },
          reply: { content: [{ type: 'text', text: 'all done' }] },
        },
      ],
    });
    const { workspace, sessions } = t.carapace.services;
    const projectId = workspace.open(t.project).project.id;
    const call = (channel: string, input: unknown) =>
      t.carapace.router.dispatch(channel, input, { transport: 'websocket' });

    const created = await call('agentFiles.create', {
      projectId,
      scope: 'project',
      name: 'reviewer',
      description: 'Reviews a diff for bugs',
      tools: ['Read', 'Grep'],
      model: 'inherit',
      prompt: 'You are a careful reviewer. REVIEWER-PROMPT-BODY',
    });
    expect(created.ok).toBe(true);
    expect(readFileSync(path.join(t.project, '.claude', 'agents', 'reviewer.md'), 'utf8')).toContain(
      'REVIEWER-PROMPT-BODY',
    );
    // A hostile name crosses the boundary as a typed error, not a crash.
    const refused = await call('agentFiles.create', {
      projectId,
      scope: 'project',
      name: '../escape',
      description: 'x',
      tools: [],
      model: 'inherit',
      prompt: 'x',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    const id = workspace.createSession(projectId).id;
    sessions.send(id, 'ask the reviewer');
    await until(() => {
      const s = sessions.get(id);
      return s.session.activity === 'idle' && JSON.stringify(s.transcript).includes('all done');
    });
    const first = t.api.requests[0]?.body;
    const agentTool = (first?.tools ?? []).find((tool) => tool.name === 'Agent') as
      { description?: string } | undefined;
    expect(agentTool?.description).toContain('reviewer');
    expect(agentTool?.description).toContain('Reviews a diff for bugs');
    const child = t.api.requests.find((r) => JSON.stringify(r.body.system).includes('REVIEWER-PROMPT-BODY'));
    expect(child?.body.tools?.map((tool) => tool.name).sort()).toEqual(['Grep', 'Read']);
  });
});
