import { create } from 'zustand';

/** The pages of the Settings dialog, in the order of its list. */
export const SETTINGS_PAGES = [
  { id: 'general', label: 'General' },
  { id: 'mcp', label: 'MCP' },
  { id: 'plugins', label: 'Plugins' },
  { id: 'agents', label: 'Agents' },
] as const;
export type SettingsPageId = (typeof SETTINGS_PAGES)[number]['id'];

/** Which page Settings shows: kept while the dialog is closed, so it reopens where it was. */
export const useSettingsPage = create<{ page: SettingsPageId }>(() => ({ page: 'general' }));
