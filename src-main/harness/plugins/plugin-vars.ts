import { withPluginData, withPluginRoot } from './plugin-hooks';

const MENTIONS_DATA = /\$\{CLAUDE_PLUGIN_DATA\}|\$CLAUDE_PLUGIN_DATA(?![A-Za-z0-9_])/;

/**
 * A plugin's skill or command text with `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` put in, as
 * Claude Code fills them in skill and command content, so a plugin's instructions can name its own
 * scripts and its data folder. The data folder is made only when the text names it.
 */
export function pluginVarsFiller(root: string, dataDir: () => string): (text: string) => string {
  return (text) => {
    const rooted = withPluginRoot(text, root);
    return MENTIONS_DATA.test(rooted) ? withPluginData(rooted, dataDir()) : rooted;
  };
}
