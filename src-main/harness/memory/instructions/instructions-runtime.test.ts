import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { text } from '../../../test-support/engine';
import { testRuntime } from '../../../test-support/runtime';
import { tempDir } from '../../../test-support/temp';

function systemOf(body: { system?: unknown } | undefined): string {
  return JSON.stringify(body?.system ?? '');
}

describe('instruction files in a runtime built as the workspace builds it', () => {
  it("reads the user's ~/.claude/CLAUDE.md from the session's home and CLAUDE.md from its $CARAPACE_HOME", async () => {
    const home = tempDir('carapace-person-');
    const carapaceHome = tempDir('carapace-data-home-');
    mkdirSync(path.join(home, '.claude'));
    writeFileSync(path.join(home, '.claude', 'CLAUDE.md'), 'USER-HOME-RULES');
    writeFileSync(path.join(carapaceHome, 'CLAUDE.md'), 'CARAPACE-HOME-RULES');
    const t = await testRuntime(
      { steps: [{ reply: { content: [text('Done.')] } }] },
      {
        overrides: {
          home,
          locations: { home: carapaceHome, projectRoot: home, policyFile: path.join(home, 'no-policy.json') },
        },
      },
    );
    await t.run('hello');
    const system = systemOf(t.api.requests[0]?.body);
    expect(system).toContain('USER-HOME-RULES');
    expect(system).toContain('CARAPACE-HOME-RULES');
    expect(system.indexOf('USER-HOME-RULES')).toBeLessThan(system.indexOf('CARAPACE-HOME-RULES'));
  });
});
