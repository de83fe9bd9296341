import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../platform/secrets';
import { tempDir } from '../../test-support/temp';
import defaultSettings from '../../../resources/default-settings.json';
import { SettingsService } from './settings-service';

describe('SettingsService', () => {
  it('fills what the file leaves out from resources/default-settings.json', () => {
    const file = path.join(tempDir(), 'settings.json');
    writeFileSync(file, JSON.stringify({ theme: 'dark' }));
    const view = new SettingsService(file, {}, new MemorySecretStore()).view();
    expect(view).toMatchObject({ theme: 'dark', terminalGpu: defaultSettings.terminalGpu });
    expect(
      new SettingsService(path.join(tempDir(), 'none.json'), {}, new MemorySecretStore()).view(),
    ).toMatchObject(defaultSettings);
  });

  it('uses the demo model only when there is neither a key nor a base URL', () => {
    const file = path.join(tempDir(), 'settings.json');
    const secrets = new MemorySecretStore();
    const s = new SettingsService(file, {}, secrets);
    expect(s.demoOnly).toBe(true);
    expect(s.view()).toMatchObject({ apiKeySource: 'none', keyStorage: 'memory', baseUrlSource: 'none' });
    s.setApiKey('sk-stored');
    expect(s.demoOnly).toBe(false);
    expect(s.credentials().apiKey).toBe('sk-stored');
    expect(JSON.stringify(s.view())).not.toContain('sk-stored');
    expect(
      new SettingsService(file, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }, new MemorySecretStore())
        .demoOnly,
    ).toBe(false);
  });

  it('lets the environment win over stored values', () => {
    const dir = tempDir();
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ anthropicBaseUrl: 'https://gateway.example/' }));
    const secrets = new MemorySecretStore();
    secrets.set('anthropicApiKey', 'stored');
    const s = new SettingsService(
      file,
      { ANTHROPIC_API_KEY: 'from-env', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' },
      secrets,
    );
    expect(s.credentials()).toEqual({ apiKey: 'from-env', baseUrl: 'http://127.0.0.1:1' });
    expect(s.view()).toMatchObject({ apiKeySource: 'env', baseUrlSource: 'env' });
  });

  it('reports an invalid file, keeps it, and backs it up before writing a new one', () => {
    const dir = tempDir();
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, '{"theme": "purple", "permissions": {"allow": ["Bash"]}}');
    const s = new SettingsService(file, {}, new MemorySecretStore());
    expect(s.view().problem).toMatch(/settings\.json is invalid at theme/);
    expect(readFileSync(file, 'utf8')).toContain('purple');
    s.update({ theme: 'dark' });
    const backup = readdirSync(dir).find((n) => n.startsWith('settings.json.invalid-'));
    expect(backup).toBeDefined();
    expect(readFileSync(path.join(dir, backup ?? ''), 'utf8')).toContain('purple');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ theme: 'dark' });
    expect(s.view().problem).toBeNull();
  });

  it('keeps keys it does not know (permissions, hooks) through an update, and null removes a key', () => {
    const file = path.join(tempDir(), 'settings.json');
    writeFileSync(file, JSON.stringify({ model: 'claude-opus-4-5', permissions: { allow: ['Read'] } }));
    const s = new SettingsService(file, {}, new MemorySecretStore());
    s.update({ theme: 'light', model: null });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      permissions: { allow: ['Read'] },
      theme: 'light',
    });
  });
});
