import path from 'node:path';
import { settingsFiles, type SourceLocations } from './settings-sources';
import { readJsonObject } from './settings-file';
import { memoryDirFor } from '../memory/dir/paths';
import { isInside, realPathOf, validateMemoryPath } from '../memory/dir/validate-memory-path';

export type MemorySettingSource = 'policy' | 'local' | 'user' | 'env' | 'default';

export interface MemorySettings {
  autoMemoryEnabled: boolean;
  /** An `autoMemoryDirectory` accepted under the rules below, absolute and resolved; null: the default. */
  autoMemoryDirectory: string | null;
  /** Which source set each value. */
  enabledFrom: MemorySettingSource;
  directoryFrom: MemorySettingSource;
  /** Values that were refused or of the wrong type, in plain English. */
  problems: string[];
}

export interface MemorySettingsInput {
  /** Where settings files are: `home` is `$CARAPACE_HOME`, plus the project and the policy file. */
  locations: Pick<SourceLocations, 'home' | 'projectRoot' | 'policyFile'>;
  /** The person's home folder, for `~/` and the home-folder rules. */
  userHome: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Folders under the home folder that hold secrets or what runs at login; a memory directory there
 * would let the model write into them without asking. Any other dot-folder is refused as well (see
 * `directoryProblem`); these names only make the message plain.
 */
const SECRET_FOLDERS = new Set(['.ssh', '.gnupg', '.aws', '.kube', '.docker', '.config', '.local']);

/**
 * Where an `autoMemoryDirectory` from user settings may point, and why. Writes inside the
 * memory directory are allowed without asking, so the setting decides where the model can write
 * freely. It must therefore be:
 * - absolute or `~/…` (validateMemoryPath's layers: no NUL, UNC, bare `~`, `~/..`, relative path);
 * - strictly inside the home folder, symlinks resolved: outside it lie system folders and other
 *   people's files;
 * - in no dot-folder of the home folder (`~/.ssh`, `~/.gnupg`, `~/.aws`, `~/.config`, shell and tool
 *   configuration), except the two places memory lives by design: `$CARAPACE_HOME/projects/` and
 *   Claude Code's `~/.claude/projects/` (so a person can share memory with Claude Code).
 * Local settings (`.claude/settings.local.json`) may not set it at all: a repository can ship that
 * file, and a folder under the memory roots is still another project's memory.
 * The managed policy is the administrator's: it needs an absolute path only.
 * The project's `.claude/settings.json` is never read for it: a cloned repository could aim it at
 * `~/.ssh`.
 */
export function directoryProblem(
  value: string,
  source: 'policy' | 'local' | 'user',
  userHome: string,
  carapaceHome: string,
): { ok: true; dir: string } | { ok: false; problem: string } {
  const home = path.resolve(userHome);
  // validateMemoryPath against `/` runs the shape layers (NUL, UNC, tilde, length, relative) only.
  const shape = validateMemoryPath(value, path.parse(home).root, { home });
  const where = `autoMemoryDirectory "${value}" in ${source} settings`;
  // The local file sits in the project folder, where a downloaded repository can ship one. Any folder
  // it names is one the model may write without asking, and whose MEMORY.md goes into the prompt:
  // even a folder under the memory roots is another project's memory. So it sets nothing.
  if (source === 'local') {
    return {
      ok: false,
      problem: `${where} is ignored: a repository can ship that file, so only your user settings (or the managed policy) may set it.`,
    };
  }
  if (!shape.ok) return { ok: false, problem: `${where} is ignored: ${shape.message}` };
  const dir = shape.path;
  if (source === 'policy') return { ok: true, dir };
  const realHome = realPathOf(home);
  const homeReal = realHome.ok ? realHome.path : home;
  if (!isInside(dir, homeReal)) {
    return { ok: false, problem: `${where} is ignored: it must be a folder inside your home folder.` };
  }
  const allowedDotRoots = [path.join(carapaceHome, 'projects'), path.join(home, '.claude', 'projects')].map(
    (p) => {
      const r = realPathOf(p);
      return r.ok ? r.path : p;
    },
  );
  const first = path.relative(homeReal, dir).split(path.sep)[0] ?? '';
  if (first.startsWith('.') && !allowedDotRoots.some((root) => isInside(dir, root))) {
    const why = SECRET_FOLDERS.has(first)
      ? 'it holds keys or configuration'
      : 'hidden folders hold configuration';
    return { ok: false, problem: `${where} is ignored: ~/${first} is off limits (${why}).` };
  }
  return { ok: true, dir };
}

/**
 * `autoMemoryEnabled` (default true) from the managed policy, the local settings and the user
 * settings, highest first; `autoMemoryDirectory` from the policy and the user settings only (see
 * `directoryProblem`); neither from the project's `.claude/settings.json`.
 * `CLAUDE_CODE_DISABLE_AUTO_MEMORY=1` (or `CARAPACE_DISABLE_AUTO_MEMORY=1`) turns memory off, unless
 * the policy turns it on. Never throws: a bad value is a problem, and the next source is used.
 */
export function loadMemorySettings(input: MemorySettingsInput): MemorySettings {
  const env = input.env ?? process.env;
  const out: MemorySettings = {
    autoMemoryEnabled: true,
    autoMemoryDirectory: null,
    enabledFrom: 'default',
    directoryFrom: 'default',
    problems: [],
  };
  const files = settingsFiles({ ...input.locations }).filter((f) => f.source !== 'project');
  let enabledSet = false;
  let dirSet = false;
  for (const source of ['policy', 'local', 'user'] as const) {
    const file = files.find((f) => f.source === source);
    if (!file?.exists) continue;
    const read = readJsonObject(file.path);
    if (read.kind !== 'ok') continue;
    const enabled = read.value['autoMemoryEnabled'];
    if (!enabledSet && enabled !== undefined) {
      if (typeof enabled === 'boolean') {
        out.autoMemoryEnabled = enabled;
        out.enabledFrom = source;
        enabledSet = true;
      } else
        out.problems.push(`autoMemoryEnabled in ${source} settings must be true or false; it is ignored.`);
    }
    const dir = read.value['autoMemoryDirectory'];
    if (!dirSet && dir !== undefined && dir !== null) {
      if (typeof dir !== 'string') {
        out.problems.push(`autoMemoryDirectory in ${source} settings must be a path; it is ignored.`);
        continue;
      }
      const checked = directoryProblem(dir, source, input.userHome, input.locations.home);
      if (checked.ok) {
        out.autoMemoryDirectory = checked.dir;
        out.directoryFrom = source;
        dirSet = true;
      } else out.problems.push(checked.problem);
    }
  }
  const envOff = ['CLAUDE_CODE_DISABLE_AUTO_MEMORY', 'CARAPACE_DISABLE_AUTO_MEMORY'].some((k) =>
    ['1', 'true'].includes((env[k] ?? '').toLowerCase()),
  );
  if (envOff && out.enabledFrom !== 'policy') {
    out.autoMemoryEnabled = false;
    out.enabledFrom = 'env';
  }
  return out;
}

/** The project's memory directory under its settings, or null when auto memory is off. */
export function resolveMemoryDir(input: MemorySettingsInput): {
  dir: string | null;
  settings: MemorySettings;
} {
  const settings = loadMemorySettings(input);
  if (!settings.autoMemoryEnabled) return { dir: null, settings };
  const dir = memoryDirFor({
    carapaceHome: input.locations.home,
    projectRoot: input.locations.projectRoot,
    settingsDir: settings.autoMemoryDirectory,
  });
  return { dir, settings };
}
