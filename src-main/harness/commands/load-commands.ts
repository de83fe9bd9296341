import { realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { NOT_ENTERED, walkFolders } from '../../platform/walk';
import { pluginPlace } from '../plugins/enabled-state';
import { pluginCommandFolders } from '../plugins/load-plugins';
import { isInside } from '../tools/paths';
import { NAME_PART, parseCommandFile } from './parse-command-file';
import { readCommandFile } from './read-command-file';
import type { CommandFileProblem, CommandScope, CustomCommand } from './types';

/** At most this many command files are read in all (a hostile or huge tree cannot stall a turn). */
export const MAX_COMMAND_FILES = 500;
const WALK = { depth: 8, maxDirs: 500, skip: NOT_ENTERED };
/** A full name (`a:b:name`) longer than this is not one anybody types. */
const MAX_NAME = 200;

export interface CommandFolders {
  projectRoot: string;
  /** The person's home: `~/.claude/commands` holds their own commands. */
  home: string;
  /** Carapace's own folder (`CARAPACE_HOME`): its `commands/` holds user commands too. */
  carapaceHome: string;
}

interface Folder {
  dir: string;
  scope: CommandScope;
  /** A plugin's folder: its commands are named `plugin:command` and must stay inside `within`. */
  plugin?: { within: string; prefix: string; fill?: (body: string) => string };
}

/** Highest precedence first: the project's, then Carapace's own user folder, then Claude Code's. */
function commandFolders(o: CommandFolders): Folder[] {
  return [
    { dir: path.join(o.projectRoot, '.claude', 'commands'), scope: 'project' },
    { dir: path.join(o.carapaceHome, 'commands'), scope: 'user' },
    { dir: path.join(o.home, '.claude', 'commands'), scope: 'user' },
    // The enabled plugins' (installed by the person, so counted as theirs), below their own.
    // On or off for this project as its settings and trust say (enabled-state.ts).
    ...pluginCommandFolders(pluginPlace(o.carapaceHome, o.projectRoot)).map((p) => ({
      dir: p.dir,
      scope: 'user' as const,
      plugin: { within: p.within, prefix: p.prefix, fill: p.fill },
    })),
  ];
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function readFolder(
  folder: Folder,
  realProjectRoot: string,
  seen: Set<string>,
  budget: { files: number },
  problems: CommandFileProblem[],
): CustomCommand[] {
  let realDir: string;
  try {
    realDir = realpathSync.native(folder.dir);
    if (!statSync(realDir).isDirectory()) return [];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      problems.push({ file: folder.dir, message: `Not read: ${(error as Error).message}.` });
    return [];
  }
  // A project's commands come from the project: a cloned repository must not point its commands
  // folder at the rest of the disk. (The user's folder may be a link, into dotfiles say.)
  if (folder.scope === 'project' && !isInside(realProjectRoot, realDir)) {
    problems.push({ file: folder.dir, message: `Not read: it leads outside the project (to ${realDir}).` });
    return [];
  }
  if (folder.plugin && !isInside(folder.plugin.within, realDir)) {
    problems.push({ file: folder.dir, message: 'Not read: it leads outside the plugin.' });
    return [];
  }
  if (seen.has(realDir)) return [];
  seen.add(realDir);

  const shown = (p: string) => path.join(folder.dir, path.relative(realDir, p));
  const commands: CustomCommand[] = [];
  walkFolders(realDir, WALK, (dir, entries) => {
    const rel = path.relative(realDir, dir);
    const parts = rel === '' ? [] : rel.split(path.sep);
    for (const entry of [...entries].sort(byName)) {
      if (!entry.name.endsWith('.md') || entry.isDirectory()) continue;
      const file = path.join(dir, entry.name);
      const base = entry.name.slice(0, -'.md'.length);
      // A name a person could not type after `/` (spaces, control characters, `:`) is no command.
      const bad = [...parts, base].find((p) => !NAME_PART.test(p));
      if (bad !== undefined) {
        problems.push({
          file: shown(file),
          message: `Not loaded: "${bad.replace(/[^\x20-\x7e]/g, '?')}" cannot be part of a command name (letters, digits, _ . - only).`,
        });
        continue;
      }
      if ([...parts, base].join(':').length > MAX_NAME) {
        problems.push({
          file: shown(file),
          message: `Not loaded: its name (with its folders) is longer than ${MAX_NAME} characters.`,
        });
        continue;
      }
      if (budget.files >= MAX_COMMAND_FILES) {
        problems.push({
          file: shown(file),
          message: `Not read: only the first ${MAX_COMMAND_FILES} command files are read.`,
        });
        return;
      }
      budget.files++;
      const text = readCommandFile(file, entry, realDir);
      if (typeof text !== 'string') {
        problems.push({ file: shown(file), message: text.problem });
        continue;
      }
      const parsed = parseCommandFile(text, {
        name: base,
        namespace: [...(folder.plugin ? [folder.plugin.prefix] : []), ...parts].join(':') || null,
        scope: folder.scope,
        file: shown(file),
      });
      // A plugin's command names its own files through ${CLAUDE_PLUGIN_ROOT} / ${CLAUDE_PLUGIN_DATA}.
      const fill = folder.plugin?.fill;
      if (parsed.ok)
        commands.push(fill ? { ...parsed.command, body: fill(parsed.command.body) } : parsed.command);
      else problems.push({ file: shown(file), message: parsed.message });
    }
  });
  return commands;
}

/**
 * The custom commands of a project and of the user (`.claude/commands/**\/*.md`,
 * `$CARAPACE_HOME/commands`, `~/.claude/commands`). On a name collision the project's wins. A file
 * that cannot be read as a command is reported in `problems` and skipped; the others still load.
 * Read afresh on each call: a command file edited between two messages applies to the second.
 */
export function loadCustomCommands(o: CommandFolders): {
  commands: CustomCommand[];
  problems: CommandFileProblem[];
} {
  const problems: CommandFileProblem[] = [];
  let realProjectRoot: string;
  try {
    realProjectRoot = realpathSync.native(o.projectRoot);
  } catch {
    realProjectRoot = path.resolve(o.projectRoot);
  }
  const seen = new Set<string>();
  // The project's files and the person's have a budget each: a repository shipping 500 command
  // files must not use up the reading of the person's own commands.
  const budgets: Record<CustomCommand['scope'], { files: number }> = {
    project: { files: 0 },
    user: { files: 0 },
  };
  const byKey = new Map<string, CustomCommand>();
  for (const folder of commandFolders(o))
    for (const c of readFolder(folder, realProjectRoot, seen, budgets[folder.scope], problems)) {
      const earlier = byKey.get(c.name);
      if (earlier === undefined) byKey.set(c.name, c);
      else if (folder.plugin && earlier.scope === 'project') {
        // `/plugin:command` names what the person installed: a repository's `plugin/command.md`
        // must not answer to it (as a plugin's skills are prefixed so they cannot shadow others).
        byKey.set(c.name, c);
        problems.push({
          file: earlier.file,
          message: `Not loaded: /${c.name} is the command of the plugin "${folder.plugin.prefix}" you installed.`,
        });
      }
    }
  const commands = [...byKey.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { commands, problems };
}
