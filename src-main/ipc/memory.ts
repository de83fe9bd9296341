import type { HandlerMap } from './router';
import type { Services } from './services';

type MemoryChannels = Extract<keyof HandlerMap, `memory.${string}`>;

/**
 * The memory browser. Inputs are already parsed against the contract; every name in them is still
 * untrusted and is resolved and checked by MemoryFiles before any disk access.
 */
export function memoryHandlers(s: Services): Pick<HandlerMap, MemoryChannels> {
  const files = () => s.memory.files;
  return {
    'memory.tree': ({ projectId }) => files().tree(projectId),
    'memory.read': (input) => files().read(input),
    'memory.write': (input) => files().write(input),
    'memory.create': (input) => files().create(input),
    'memory.rename': (input) => files().rename(input),
    'memory.delete': (input) => files().delete(input),
    'memory.trash': (input) => files().trash(input),
    'memory.restore': (input) => files().restore(input),
    'memory.loaded': ({ sessionId }) => s.memory.loaded(sessionId),
    'memory.consolidate': ({ projectId }) => s.memory.consolidate(projectId),
    'memory.watch': async ({ projectId }) => {
      await files().watch(projectId);
      return { watching: true };
    },
    'memory.unwatch': ({ projectId }) => ({ watching: files().unwatch(projectId) }),
  };
}
