import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCarapace } from '../test-support/carapace';
import { dataPaths } from '../platform/paths';

describe('WorkspaceService.createSession', () => {
  it('returns a session that was saved even when its tab cannot be saved; the tab is kept in memory', async () => {
    const t = await testCarapace();
    const { workspace, sessions } = t.carapace.services;
    const project = workspace.open(t.project).project;
    // workspace.json cannot be replaced (a folder stands where the file goes).
    mkdirSync(path.join(dataPaths(t.home).projectDir(project.id), 'workspace.json'), { recursive: true });
    const session = workspace.createSession(project.id);
    expect(sessions.list(project.id).map((s) => s.id)).toContain(session.id);
    expect(workspace.tabs(project.id)).toEqual({ open: [session.id], active: session.id });
  });
});
