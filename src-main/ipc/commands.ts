import { loadCustomCommands } from '../harness/commands/load-commands';
import type { HandlerMap } from './router';
import type { Services } from './services';

type CommandChannels = Extract<keyof HandlerMap, `commands.${string}`>;

/** The composer's autocomplete: a project's and the user's custom commands, read afresh each time. */
export function commandHandlers(s: Services): Pick<HandlerMap, CommandChannels> {
  return {
    'commands.list': ({ projectId }) => {
      // An unknown project answers NOT_FOUND (snapshot throws it) before any folder is read.
      const projectRoot = s.workspace.snapshot(projectId).project.path;
      const { commands, problems } = loadCustomCommands({
        projectRoot,
        home: s.homeDir,
        carapaceHome: s.permissionLocations(projectRoot).home,
      });
      // The body stays in the main process: the window lists names, it never needs a prompt's text.
      return {
        commands: commands.map((c) => ({
          name: c.name,
          scope: c.scope,
          description: c.description,
          argumentHint: c.argumentHint,
          model: c.model,
          allowedTools: c.allowedTools,
        })),
        // Paths and messages can be long (a link's target): cut to what the contract carries.
        problems: problems.slice(0, 1000).map((p) => ({
          file: p.file.slice(0, 4000),
          message: p.message.slice(0, 2000),
        })),
      };
    },
  };
}
