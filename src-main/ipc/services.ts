import type { ModelInfo } from '@shared/domain/models';
import type { SettingsService } from '../harness/settings/settings-service';
import type { SessionManager } from '../workspace/sessions';
import type { WorkspaceService } from '../workspace/workspace-service';

/** A native folder chooser; only the desktop app has one. */
export interface FolderPicker {
  pick(): Promise<string | null>;
}

/** What the IPC handlers may reach: built once by the composition root. */
export interface Services {
  version: string;
  platform: string;
  homeDir: string;
  workspace: WorkspaceService;
  sessions: SessionManager;
  settings: SettingsService;
  models: { list(): ModelInfo[] };
  folderPicker: FolderPicker | null;
}
