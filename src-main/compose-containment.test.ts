import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '@shared/domain/messages';
import { testCarapace } from './test-support/carapace';

/**
 * The composition the desktop window uses (createCarapace, shared with serve mode) hands every
 * session's sandbox the project's protected paths, computed from the project root: the process's
 * working directory here is the checkout, as it is the app's folder in the desktop app.
 */
describe('createCarapace: sandboxed commands of a project opened from the UI', () => {
  it('cannot write the project’s settings or git internals; the project itself stays writable', async () => {
    const t = await testCarapace({
      steps: [
        {
          reply: {
            content: [
              {
                type: 'tool_use',
                id: 'b1',
                name: 'Bash',
                input: {
                  command:
                    'echo x > .claude/settings.local.json; echo "settings=$?"; echo x > .git/hooks/pre-commit; echo "hook=$?"; echo x > .vscode; echo "vscode=$?"; echo ok > ok.txt; echo "ok=$?"',
                },
              },
            ],
            stop_reason: 'tool_use',
          },
        },
        { reply: { content: [{ type: 'text', text: 'done' }] } },
      ],
    });
    expect(path.relative(process.cwd(), t.project).startsWith('..')).toBe(true);
    execFileSync('git', ['init', '-q', t.project]);
    writeFileSync(
      path.join(t.home, 'settings.json'),
      JSON.stringify({ sandbox: { autoAllowBashIfSandboxed: true } }),
    );
    const { workspace, sessions } = t.carapace.services;
    // As in the app, where the check has long finished before a person sends anything.
    expect(await t.carapace.services.sandboxStatus()).toMatchObject({ available: true });
    const project = workspace.open(t.project).project;
    const session = workspace.createSession(project.id);
    sessions.send(session.id, 'go');
    await expect.poll(() => t.api.requests.length, { timeout: 20_000 }).toBe(2);
    const last = t.api.requests[1]?.body.messages?.at(-1) as { content: ToolResultBlock[] } | undefined;
    const result = JSON.stringify(last?.content[0]?.content);
    expect(result).toMatch(/settings=[1-9]/);
    expect(result).toMatch(/hook=[1-9]/);
    expect(result).toMatch(/vscode=[1-9]/);
    expect(result).toContain('ok=0');
    expect(existsSync(path.join(t.project, '.claude', 'settings.local.json'))).toBe(false);
    expect(existsSync(path.join(t.project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    // The long-lived sandboxed shell's placeholder for the missing `.vscode` goes when the turn ends.
    await expect.poll(() => existsSync(path.join(t.project, '.vscode')), { timeout: 10_000 }).toBe(false);
    expect(readFileSync(path.join(t.project, 'ok.txt'), 'utf8')).toBe('ok\n');
  });
});
