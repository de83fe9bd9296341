import { copyFileSync } from 'node:fs';
import { UserSettings, type SettingsPatch, type SettingsView } from '@shared/domain/settings';
import { readJsonFile, writeJsonFileAtomic } from '../../platform/json-file';
import type { SecretStore } from '../../platform/secrets';

const API_KEY_SECRET = 'anthropicApiKey';

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
      theme: this.settings.theme ?? 'system',
      terminalGpu: this.settings.terminalGpu ?? true,
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
