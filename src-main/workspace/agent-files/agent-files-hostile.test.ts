import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewAgentInput } from '@shared/ipc/contract/agent-files';
import { loadPluginComponents } from '../../harness/plugins/load-plugins';
import { tempDir } from '../../test-support/temp';
import { AgentFileError } from './agent-file-paths';
import { AgentFilesService } from './agent-files-service';

/*
 * Settings → Agents against a project whose folders change under it: an agent (or anything else
 * running in the project) swapping a checked folder for a link between the service's check and its
 * write. The swap is made at the service's `beforeLastCheck`, once the text is written: made right
 * after the call returned instead, it raced the write's own mkdir on the thread pool, which could
 * recreate the folder first (seen in CI).
 */

const agentText = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${name} agent\n---\n${body}\n`;

/** The Settings → Agents form's new project agent the create tests write. */
const PLANTED: NewAgentInput = {
  projectId: 'p',
  scope: 'project',
  name: 'planted',
  description: 'Plans',
  tools: [],
  model: 'inherit',
  prompt: 'PLANTED-PROMPT',
};

function setup() {
  const project = tempDir('carapace-agents-race-project-');
  const home = tempDir('carapace-agents-race-home-');
  const carapaceHome = tempDir('carapace-agents-race-carapace-');
  const outside = tempDir('carapace-agents-race-outside-');
  const service = new AgentFilesService({
    home,
    carapaceHome,
    plugins: () => loadPluginComponents(carapaceHome),
    beforeLastCheck: () => race.swap(),
  });
  /** What the test swaps at the service's last check (nothing unless set). */
  const race: { swap: () => void } = { swap: () => undefined };
  return { project, outside, service, race, agents: path.join(project, '.claude', 'agents') };
}

async function refusalOf(p: Promise<unknown>): Promise<AgentFileError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentFileError);
  return error as AgentFileError;
}

describe('agent files: a folder swapped for a link between the check and the write', () => {
  it('save does not write through a subfolder replaced by a link to outside the project', async () => {
    const { project, outside, service, race, agents } = setup();
    const sub = path.join(agents, 'team');
    race.swap = () => {
      renameSync(sub, `${sub}.moved`);
      symlinkSync(outside, sub);
    };
    mkdirSync(sub, { recursive: true });
    const old = agentText('helper', 'OLD');
    writeFileSync(path.join(sub, 'helper.md'), old);
    // Outside holds the same name and text, so a version check read through the link would pass.
    writeFileSync(path.join(outside, 'helper.md'), old);
    const { version } = service.read(project, { folder: 'project', path: 'team/helper.md' });

    const saving = service.save(
      project,
      { folder: 'project', path: 'team/helper.md' },
      agentText('helper', 'NEW'),
      version,
    );

    const e = await refusalOf(saving);
    expect(e.reason).toBe('changed');
    expect(readFileSync(path.join(outside, 'helper.md'), 'utf8')).toBe(old);
    expect(readdirSync(outside)).toEqual(['helper.md']);
  });

  it('create does not make its file through an agents folder replaced by a link', async () => {
    const { project, outside, service, race, agents } = setup();
    mkdirSync(agents, { recursive: true });
    race.swap = () => {
      renameSync(agents, `${agents}.moved`);
      symlinkSync(outside, agents);
    };

    const e = await refusalOf(service.create(project, PLANTED));
    expect(e.reason).toBe('changed');
    expect(existsSync(path.join(outside, 'planted.md'))).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('with no swap, both still write in place (the check does not refuse a folder that stayed)', async () => {
    const { project, service, agents } = setup();
    const sub = path.join(agents, 'team');
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, 'helper.md'), agentText('helper', 'OLD'));
    const { version } = service.read(project, { folder: 'project', path: 'team/helper.md' });
    await service.save(
      project,
      { folder: 'project', path: 'team/helper.md' },
      agentText('helper', 'NEW'),
      version,
    );
    expect(readFileSync(path.join(sub, 'helper.md'), 'utf8')).toContain('NEW');
    await service.create(project, PLANTED);
    expect(readFileSync(path.join(agents, 'planted.md'), 'utf8')).toContain('PLANTED-PROMPT');
  });
});
