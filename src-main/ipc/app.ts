import type { HandlerMap } from './router';
import type { Services } from './services';

export function appHandlers(s: Services): Pick<HandlerMap, 'app.info' | 'models.list'> {
  return {
    'app.info': (_input, ctx) => ({
      version: s.version,
      transport: ctx.transport,
      platform: s.platform,
      homeDir: s.homeDir,
      capabilities: { nativeFolderPicker: s.folderPicker !== null && ctx.transport === 'electron' },
    }),
    'models.list': () => s.models.list(),
  };
}
