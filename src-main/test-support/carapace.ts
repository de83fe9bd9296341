import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { createCarapace, type Carapace } from '../compose';
import type { ScenarioInput } from '../devtools/scripted-api/scenario';
import { startScriptedApi, type ScriptedApi } from '../devtools/scripted-api/server';
import { silentLogger } from '../platform/logger';
import { MemorySecretStore } from '../platform/secrets';
import { tempDir } from './temp';

export interface TestCarapace {
  carapace: Carapace;
  api: ScriptedApi;
  home: string;
  /**
   * The person's home folder the app was given (`~/.claude.json`, `~/.claude/`): a temporary one, so
   * the developer's own cannot change a test's result. A restart passes it again as `homeDir`.
   */
  userHome: string;
  project: string;
  /** The environment it was created with (a second createCarapace with it is a restart). */
  env: NodeJS.ProcessEnv;
}

/**
 * A fully composed Carapace on a temp home, whose model is the scripted Messages API reached through
 * the real SDK. Everything is shut down when the test ends.
 */
export async function testCarapace(
  scenario: ScenarioInput = { steps: [] },
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<TestCarapace> {
  const api = await startScriptedApi({ scenario });
  const home = tempDir('carapace-home-');
  const userHome = tempDir('carapace-user-home-');
  const project = tempDir('carapace-project-');
  const env = {
    CARAPACE_HOME: home,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: api.url,
    ...extraEnv,
  };
  const carapace = createCarapace({
    env,
    secrets: new MemorySecretStore(),
    logger: silentLogger,
    version: '0.0.0-test',
    homeDir: userHome,
  });
  onTestFinished(async () => {
    await carapace.shutdown();
    await api.close();
  });
  return { carapace, api, home, userHome, project, env };
}

/** A stand-in renderer build: an index page and one asset. */
export function fakeRendererDir(): string {
  const dir = tempDir('carapace-renderer-');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Carapace</title>');
  writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log("app");');
  return dir;
}
