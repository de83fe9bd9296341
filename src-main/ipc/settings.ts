import type { HandlerMap } from './router';
import type { Services } from './services';

export function settingsHandlers(
  s: Services,
): Pick<HandlerMap, 'settings.get' | 'settings.update' | 'settings.setApiKey'> {
  return {
    'settings.get': () => s.settings.view(),
    'settings.update': (patch) => s.settings.update(patch),
    'settings.setApiKey': ({ key }) => s.settings.setApiKey(key),
  };
}
