import { copyFileSync } from 'node:fs';
import { z } from 'zod';
import {
  ThemePreference,
  UserSettings,
  type SettingsPatch,
  type SettingsView,
} from '@shared/domain/settings';
import { Budgets } from '@shared/domain/cost-report';
import defaultSettings from '../../../resources/default-settings.json';
import { readJsonFile, writeJsonFileAtomic } from '../../platform/json-file';
import type { SecretStore } from '../../platform/secrets';

const API_KEY_SECRET = 'anthropicApiKey';

/** What a setting is when the user's file does not say: resources/default-settings.json, bundled. */
export const DEFAULT_SETTINGS = z
  .object({ theme: ThemePreference, terminalGpu: z.boolean() })
  .parse(defaultSettings);

export interface Credentials {
  apiKey: string | null;
  baseUrl: string | null;
}

/**
 * The user's settings file plus the environment. The environment wins (ANTHROPIC_API_KEY,
 * ANTHROPIC_BASE_URL), as it does for the SDK and Claude Code. An invalid file is reported, used as
 * if empty, and copied aside before the UI writes a new one, so nothing the user wrote is lost.
 */
export class SettingsService {
  private settings: UserSettings = {};
  private problem: string | null = null;
  private readonly listeners = new Set<(view: SettingsView) => void>();

  constructor(
    private readonly file: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly secrets: SecretStore,
  ) {
    this.reload();
  }

  reload(): void {
    const read = readJsonFile(this.file, UserSettings);
    this.settings = read.kind === 'ok' ? read.value : {};
    this.problem =
      read.kind === 'invalid' ? `${read.problem}. Defaults are in use; the file was not changed.` : null;
  }

  get current(): Readonly<UserSettings> {
    return this.settings;
  }

  credentials(): Credentials {
    const envKey = this.env['ANTHROPIC_API_KEY'];
    const envBase = this.env['ANTHROPIC_BASE_URL'];
    return {
      apiKey: envKey && envKey.length > 0 ? envKey : this.secrets.get(API_KEY_SECRET),
      baseUrl: envBase && envBase.length > 0 ? envBase : (this.settings.anthropicBaseUrl ?? null),
    };
  }

  /** True when there is neither a key nor a base URL: new sessions use the demo model. */
  get demoOnly(): boolean {
    const c = this.credentials();
    return c.apiKey === null && c.baseUrl === null;
  }

  view(): SettingsView {
    const envKey = this.env['ANTHROPIC_API_KEY'];
    const envBase = this.env['ANTHROPIC_BASE_URL'];
    const creds = this.credentials();
    return {
      model: this.settings.model ?? null,
      anthropicBaseUrl: creds.baseUrl,
      baseUrlSource: envBase ? 'env' : this.settings.anthropicBaseUrl ? 'settings' : 'none',
      theme: this.settings.theme ?? DEFAULT_SETTINGS.theme,
      terminalGpu: this.settings.terminalGpu ?? DEFAULT_SETTINGS.terminalGpu,
      apiKeySource: envKey ? 'env' : creds.apiKey ? 'stored' : 'none',
      keyStorage: this.secrets.kind,
      problem: this.problem,
    };
  }

  update(patch: SettingsPatch): SettingsView {
    if (this.problem !== null) {
      // Keep the user's broken file: the new one starts from defaults.
      copyFileSync(this.file, `${this.file}.invalid-${Date.now()}`);
      this.problem = null;
    }
    const next: Record<string, unknown> = { ...this.settings };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete next[key];
      else if (value !== undefined) next[key] = value;
    }
    const settings = UserSettings.parse(next);
    writeJsonFileAtomic(this.file, settings);
    this.settings = settings;
    return this.changed();
  }

  /** The `budgets` block as written, or {} when absent or not valid (harness/cost/budget says why). */
  budgets(): Budgets {
    const parsed = Budgets.safeParse(this.settings['budgets'] ?? {});
    return parsed.success ? parsed.data : {};
  }

  /**
   * Changes spending limits in the user's file: a number sets one, null removes one, every other key
   * of the file is kept. Read afresh first, so an edit made by hand meanwhile is not lost; a block that
   * was not valid is replaced by the limits given.
   */
  setBudgets(patch: Partial<Record<keyof Budgets, number | null | undefined>>): Budgets {
    this.reload();
    if (this.problem !== null) {
      copyFileSync(this.file, `${this.file}.invalid-${Date.now()}`);
      this.problem = null;
    }
    const next: Record<string, unknown> = { ...this.budgets() };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete next[key];
      else if (value !== undefined) next[key] = value;
    }
    const budgets = Budgets.parse(next);
    const file: Record<string, unknown> = { ...this.settings };
    if (Object.keys(budgets).length === 0) delete file['budgets'];
    else file['budgets'] = budgets;
    writeJsonFileAtomic(this.file, file);
    this.settings = UserSettings.parse(file);
    return budgets;
  }

  setApiKey(key: string | null): SettingsView {
    this.secrets.set(API_KEY_SECRET, key === null ? null : key.trim());
    return this.changed();
  }

  onDidChange(listener: (view: SettingsView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): SettingsView {
    const view = this.view();
    for (const l of this.listeners) l(view);
    return view;
  }
}
