import { agentFileHandlers } from './agent-files';
import { appHandlers } from './app';
import { budgetHandlers } from './budgets';
import { changesHandlers } from './changes';
import { commandHandlers } from './commands';
import { costHandlers } from './cost';
import { hooksHandlers } from './hooks';
import { mcpHandlers } from './mcp';
import { pluginHandlers } from './plugins';
import { memoryHandlers } from './memory';
import { permissionHandlers } from './permissions';
import { projectHandlers } from './projects';
import { rewindHandlers } from './rewind';
import { searchHandlers } from './search';
import type { HandlerMap } from './router';
import type { Services } from './services';
import { sessionHandlers } from './sessions';
import { settingsHandlers } from './settings';
import { teamHandlers } from './teams';
import { terminalHandlers } from './terminals';
import { trustHandlers } from './trust';
import { worktreeHandlers } from './worktrees';

/** Every channel's handler; the type demands one for each channel of the contract. */
export function createHandlers(services: Services): HandlerMap {
  return {
    ...appHandlers(services),
    ...projectHandlers(services),
    ...sessionHandlers(services),
    ...teamHandlers(services),
    ...settingsHandlers(services),
    ...permissionHandlers(services),
    ...terminalHandlers(services),
    ...trustHandlers(services),
    ...memoryHandlers(services),
    ...searchHandlers(services),
    ...costHandlers(services),
    ...budgetHandlers(services),
    ...commandHandlers(services),
    ...rewindHandlers(services),
    ...hooksHandlers(services),
    ...mcpHandlers(services),
    ...pluginHandlers(services),
    ...agentFileHandlers(services),
    ...worktreeHandlers(services),
    ...changesHandlers(services),
  };
}
