import { realpathSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { AgentFileRef, AgentFilesView, NewAgentInput } from '@shared/ipc/contract/agent-files';
import { MAX_AGENT_FILE_BYTES } from '../../harness/agents/load-agents';
import { parseAgentFile } from '../../harness/agents/parse-agent-file';
import { readCappedText } from '../../harness/definition-files/read-definition-file';
import type { PluginComponents } from '../../harness/plugins/load-plugins';
import { isInside } from '../../harness/tools/paths';
import { AppError } from '../../platform/errors';
import { ioError, readText, versionOf, writeAtomic } from '../memory-disk';
import { listAgentFiles } from './agent-file-listing';
import { AgentFileError, checkNewAgentName, refTarget, type AgentFileRoots } from './agent-file-paths';
import { newAgentMarkdown } from './agent-markdown';

export interface AgentFilesDeps {
  home: string;
  carapaceHome: string;
  /** The plugins enabled for a project, as its sessions load them (their agents are read-only). */
  plugins: (projectRoot: string) => PluginComponents;
  /**
   * Runs right before the last check that the file's folder is still where it was, once the file's
   * text is written and flushed: where a folder swapped for a link is the hardest case. Tests make
   * the swap here; nothing else sets it.
   */
  beforeLastCheck?: () => void;
}

/**
 * Settings → Agents: the project's and the person's agent files, listed as sessions see them, and
 * created, edited and deleted. Every text written is first parsed by the sessions' own parser (a
 * file the loader would skip is never written), written atomically (temp file and rename), and only
 * inside the agents folder, never through a link that leads out of it.
 */
export class AgentFilesService {
  constructor(private readonly deps: AgentFilesDeps) {}

  private roots(projectRoot: string): AgentFileRoots {
    return { projectRoot, home: this.deps.home, carapaceHome: this.deps.carapaceHome };
  }

  list(projectRoot: string): AgentFilesView {
    return listAgentFiles(this.roots(projectRoot), () => this.deps.plugins(projectRoot));
  }

  /** A file's text and version; a link is read only when it leads inside its agents folder. */
  read(projectRoot: string, ref: AgentFileRef): { text: string; version: string } {
    const { file, realDir, info } = refTarget(ref, this.roots(projectRoot), { create: false });
    if (info === null) throw new AgentFileError('NOT_FOUND', 'not-found', `${ref.path} does not exist.`);
    let target = file;
    if (info.isSymbolicLink()) {
      const real = realOrNull(file);
      if (real === null || !isInside(realDir, real))
        throw new AgentFileError(
          'FORBIDDEN',
          'link-outside',
          `${ref.path} is a link leading outside its folder.`,
        );
      target = real;
    }
    const text = readCappedText(target, MAX_AGENT_FILE_BYTES);
    if (typeof text !== 'string')
      throw new AgentFileError(
        'INVALID_INPUT',
        'unreadable',
        `${ref.path} is not opened here: ${text.problem}.`,
      );
    return { text, version: versionOf(text) };
  }

  /** Writes `<name>.md` from the form; refused if the name is taken in that folder. */
  async create(
    projectRoot: string,
    input: NewAgentInput,
  ): Promise<{ view: AgentFilesView; ref: AgentFileRef }> {
    checkNewAgentName(input.name);
    const ref: AgentFileRef = { folder: input.scope, path: `${input.name}.md` };
    const text = newAgentMarkdown(input);
    const parsed = this.check(text, ref);
    this.refuseTakenName(projectRoot, ref, parsed);
    const { file, info } = refTarget(ref, this.roots(projectRoot), { create: true });
    if (info !== null) throw new AgentFileError('CONFLICT', 'exists', `${ref.path} already exists.`);
    await writeOrRefuse(file, text, {
      create: true,
      beforeRename: () => {
        this.deps.beforeLastCheck?.();
        return Promise.resolve(stillInPlace(file, ref));
      },
    });
    return { view: this.list(projectRoot), ref };
  }

  /** Replaces a file's text when it parses and nobody changed the file since `version`. */
  async save(projectRoot: string, ref: AgentFileRef, text: string, version: string): Promise<AgentFilesView> {
    const parsed = this.check(text, ref);
    const { file, info } = refTarget(ref, this.roots(projectRoot), { create: false });
    if (info === null) throw new AgentFileError('NOT_FOUND', 'not-found', `${ref.path} does not exist.`);
    // Saving replaces what is at the path: through a link that would turn the link into a file (or,
    // followed, write wherever it leads). Edit the file it leads to instead.
    if (info.isSymbolicLink())
      throw new AgentFileError('FORBIDDEN', 'link', `${ref.path} is a link; it is not written through.`);
    if (!info.isFile())
      throw new AgentFileError('INVALID_INPUT', 'bad-path', `${ref.path} is not a regular file.`);
    this.refuseTakenName(projectRoot, ref, parsed);
    const changed = () =>
      new AgentFileError(
        'CONFLICT',
        'changed',
        `${ref.path} changed on disk since it was opened; open it again.`,
      );
    await writeOrRefuse(file, text, {
      beforeRename: async () => {
        const now = await readText(file);
        if (now === null || versionOf(now) !== version) throw changed();
        // Last, with no await between it and the rename.
        this.deps.beforeLastCheck?.();
        stillInPlace(file, ref);
      },
    });
    return this.list(projectRoot);
  }

  /** Removes the file, or the link itself; nothing outside the agents folder is touched. */
  async delete(projectRoot: string, ref: AgentFileRef): Promise<AgentFilesView> {
    const { file, info } = refTarget(ref, this.roots(projectRoot), { create: false });
    if (info === null) throw new AgentFileError('NOT_FOUND', 'not-found', `${ref.path} does not exist.`);
    // Unlinking never opens or follows what is there: a link, a FIFO or a file alike go; a folder stays.
    if (info.isDirectory())
      throw new AgentFileError('INVALID_INPUT', 'bad-path', `${ref.path} is a folder, not an agent file.`);
    try {
      await unlink(file);
    } catch (error) {
      throw ioError(file, error);
    }
    return this.list(projectRoot);
  }

  /** The text as the loader would take it: too large, or any parser fault, refuses the write. */
  private check(text: string, ref: AgentFileRef): string {
    if (Buffer.byteLength(text, 'utf8') > MAX_AGENT_FILE_BYTES)
      throw new AgentFileError(
        'PAYLOAD_TOO_LARGE',
        'too-large',
        `An agent file may be at most ${MAX_AGENT_FILE_BYTES / 1024} KB; sessions would not load a larger one.`,
      );
    if (text.includes('\0'))
      throw new AgentFileError('INVALID_INPUT', 'invalid', 'An agent file may not contain NUL characters.');
    const parsed = parseAgentFile(text, { file: ref.path, source: 'project' });
    if (!parsed.ok) throw new AgentFileError('INVALID_INPUT', 'invalid', parsed.message);
    return parsed.agent.name;
  }

  /** Another file of the same folder already defining the name would make the loader skip one. */
  private refuseTakenName(projectRoot: string, ref: AgentFileRef, name: string): void {
    const view = this.list(projectRoot);
    const other = view.agents.find(
      (a) => a.name === name && a.ref?.folder === ref.folder && a.ref.path !== ref.path,
    );
    if (other)
      throw new AgentFileError(
        'CONFLICT',
        'exists',
        `${other.file ?? path.basename(ref.path)} in the same folder already defines the agent "${name}".`,
      );
  }
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/**
 * The file's folder was checked as a real folder (no link on the way) before the write began; the
 * write is asynchronous, so something running in the project could have swapped it for a link
 * (to `~/.ssh`, another project's agents) meanwhile. Checked again right before the rename or link
 * that puts the file in place, so the file is never put where the link leads.
 */
function stillInPlace(file: string, ref: AgentFileRef): void {
  const dir = path.dirname(file);
  if (realOrNull(dir) !== dir)
    throw new AgentFileError(
      'CONFLICT',
      'changed',
      `The folder of ${ref.path} changed on disk (it was replaced, by a link perhaps) while saving; nothing was written.`,
    );
}

async function writeOrRefuse(
  file: string,
  text: string,
  o: Parameters<typeof writeAtomic>[2],
): Promise<void> {
  try {
    await writeAtomic(file, text, o);
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT' && !(error instanceof AgentFileError))
      throw new AgentFileError('CONFLICT', 'exists', error.message, error);
    if (error instanceof AppError) throw error;
    throw ioError(file, error);
  }
}
