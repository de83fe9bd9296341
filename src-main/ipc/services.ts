import type { ModelInfo } from '@shared/domain/models';
import type { SandboxStatus } from '../harness/bash/sandbox';
import type { SettingsService } from '../harness/settings/settings-service';
import type { SessionManager } from '../workspace/sessions';
import type { SourceLocations } from '../harness/permissions/settings-sources';
import type { TrustStore } from '../harness/permissions/trust';
import type { McpService } from '../workspace/mcp-service';
import type { MemoryService } from '../workspace/memory-service';
import type { PermissionBroker } from '../workspace/permission-broker';
import type { BudgetService } from '../workspace/budget-service';
import type { CostService } from '../workspace/cost-service';
import type { ChangesService } from '../workspace/changes/changes-service';
import type { SearchThread } from '../workspace/search/search-thread';
import type { TerminalManager } from '../workspace/terminals';
import type { WorkspaceService } from '../workspace/workspace-service';
import type { SessionWorktrees } from '../workspace/worktrees/session-worktrees';

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
  broker: PermissionBroker;
  /** Spending limits and the sessions paused at one. */
  budgets: BudgetService;
  /** The usage ledger: the cost dashboard's report, a session's cost view, exports. */
  cost: CostService;
  permissionLocations(projectRoot: string): SourceLocations;
  /** Which widening items of each folder's own settings a person accepted (workspace trust). */
  trust: TrustStore;
  /** Whether the OS sandbox can run commands here, and if not, why. */
  sandboxStatus(): Promise<SandboxStatus>;
  /** Search across sessions: an index per project beside its transcripts. */
  search: SearchThread;
  /** Each session's terminal panel. */
  terminals: TerminalManager;
  /** The memory browser's files, a session's loaded context and "Consolidate now". */
  memory: MemoryService;
  /** Each project's MCP servers (the Settings MCP page; sessions get their tools). */
  mcp: McpService;
  /** Carapace's own folder (CARAPACE_HOME): the installed plugins' list is there. */
  carapaceHome: string;
  /** Git worktrees per session: made, listed with ahead/behind, merged, removed. */
  worktrees: SessionWorktrees;
  /** The Changes view: each session's diff against its base or the uncommitted changes. */
  changes: ChangesService;
}
