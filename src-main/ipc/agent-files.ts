import { loadPluginComponents } from '../harness/plugins/load-plugins';
import { AgentFilesService } from '../workspace/agent-files/agent-files-service';
import type { HandlerMap } from './router';
import type { Services } from './services';

type AgentFileChannels = Extract<keyof HandlerMap, `agentFiles.${string}`>;

/**
 * Settings → Agents. Stateless: every call reads the folders afresh (the files are the person's and
 * the repository's, changed by editors and git as well as here). A project is named by id, so an
 * unknown one answers NOT_FOUND before any folder is touched.
 */
export function agentFileHandlers(s: Services): Pick<HandlerMap, AgentFileChannels> {
  const service = new AgentFilesService({
    home: s.homeDir,
    carapaceHome: s.carapaceHome,
    // The plugins enabled for this project, as its sessions load them (settings' enabledPlugins too).
    plugins: (projectRoot) => loadPluginComponents(s.permissionLocations(projectRoot)),
  });
  const root = (projectId: string) => s.workspace.snapshot(projectId).project.path;
  return {
    'agentFiles.list': ({ projectId }) => service.list(root(projectId)),
    'agentFiles.read': ({ projectId, ref }) => service.read(root(projectId), ref),
    'agentFiles.create': (input) => service.create(root(input.projectId), input),
    'agentFiles.save': ({ projectId, ref, text, version }) =>
      service.save(root(projectId), ref, text, version),
    'agentFiles.delete': ({ projectId, ref }) => service.delete(root(projectId), ref),
  };
}
