import { z } from 'zod';
import { StreamDelta, ToolProgressDelta, ToolResultBlock, TranscriptItem } from '../domain/messages';
import {
  PermissionLogEntry,
  PermissionMode,
  PermissionRequestView,
  PermissionResponse,
  RulesView,
  SandboxView,
} from '../domain/permissions';
import { ModelId, ModelInfo } from '../domain/models';
import { PermissionModesView } from '../domain/permission-modes';
import { DirectoryListing, ProjectInfo } from '../domain/project';
import { SessionId, SessionSummary, SessionTitle, TaskOutputDelta, TaskView } from '../domain/session';
import { SettingsPatch, SettingsView } from '../domain/settings';
import { TabsState, WorkspaceSnapshot } from '../domain/workspace';
import { ProjectTrustView, TrustedFolder } from '../domain/trust';

/**
 * The whole IPC contract: every request channel as `{input, output}` and every event as a payload schema.
 * Both transports (Electron IPC and the serve-mode WebSocket) carry exactly these, and the main process
 * parses every input against them: the renderer is untrusted.
 */

const Empty = z.strictObject({});
const ProjectRef = z.strictObject({ projectId: z.string().min(1).max(500) });
const SessionRef = z.strictObject({ sessionId: SessionId });
const TerminalId = z.string().min(1).max(100);
const TerminalCols = z.number().int().min(2).max(1000);
const TerminalRows = z.number().int().min(1).max(500);

export const TerminalInfo = z.object({
  terminalId: z.string(),
  /** The screen and scrollback so far, as escape sequences to write into a fresh terminal. */
  snapshot: z.string(),
  /** Characters of output the snapshot covers. */
  offset: z.number(),
  /** Set once the shell has exited. */
  exitCode: z.number().nullable(),
});
export type TerminalInfo = z.infer<typeof TerminalInfo>;

export const AppInfo = z.object({
  version: z.string(),
  transport: z.enum(['electron', 'websocket']),
  platform: z.string(),
  homeDir: z.string(),
  capabilities: z.object({
    /** A native folder picker exists (desktop only). */
    nativeFolderPicker: z.boolean(),
  }),
});
export type AppInfo = z.infer<typeof AppInfo>;

function channel<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): { input: I; output: O } {
  return { input, output };
}

export const requests = {
  'app.info': channel(Empty, AppInfo),

  'projects.recent': channel(Empty, z.array(ProjectInfo)),
  /** The project opened last (by any window), so a reload lands where it was. */
  'projects.current': channel(Empty, WorkspaceSnapshot.nullable()),
  'projects.open': channel(z.strictObject({ path: z.string().min(1).max(4096) }), WorkspaceSnapshot),
  'projects.forget': channel(z.strictObject({ path: z.string().min(1).max(4096) }), z.array(ProjectInfo)),

  'fs.listDirectory': channel(
    z.strictObject({ path: z.string().min(1).max(4096).optional(), showHidden: z.boolean().optional() }),
    DirectoryListing,
  ),
  'fs.pickDirectory': channel(Empty, z.object({ path: z.string().nullable() })),

  'sessions.list': channel(ProjectRef, z.array(SessionSummary)),
  'sessions.create': channel(
    z.strictObject({ projectId: z.string().min(1).max(500), model: ModelId.optional() }),
    SessionSummary,
  ),
  'sessions.get': channel(
    SessionRef,
    z.object({ session: SessionSummary, transcript: z.array(TranscriptItem) }),
  ),
  /** Starts a turn and returns at once; the reply arrives as events. */
  'sessions.send': channel(
    z.strictObject({ sessionId: SessionId, text: z.string().trim().min(1).max(1_000_000) }),
    z.object({ messageId: z.string() }),
  ),
  'sessions.stop': channel(SessionRef, z.object({ stopped: z.boolean() })),
  'sessions.rename': channel(z.strictObject({ sessionId: SessionId, title: SessionTitle }), SessionSummary),
  'sessions.setModel': channel(z.strictObject({ sessionId: SessionId, model: ModelId }), SessionSummary),
  'sessions.setPermissionMode': channel(
    z.strictObject({ sessionId: SessionId, mode: PermissionMode }),
    SessionSummary,
  ),
  /** The modes a project's sessions may use (start mode from trusted sources; bypass unless disabled). */
  'sessions.modes': channel(ProjectRef, PermissionModesView),

  'tabs.open': channel(z.strictObject({ projectId: z.string().min(1), sessionId: SessionId }), TabsState),
  'tabs.close': channel(z.strictObject({ projectId: z.string().min(1), sessionId: SessionId }), TabsState),
  'tabs.activate': channel(z.strictObject({ projectId: z.string().min(1), sessionId: SessionId }), TabsState),
  'tabs.reorder': channel(
    z.strictObject({ projectId: z.string().min(1), order: z.array(SessionId).max(500) }),
    TabsState,
  ),

  'models.list': channel(Empty, z.array(ModelInfo)),

  /** A session's background tasks, running and ended. */
  'tasks.list': channel(SessionRef, z.array(TaskView)),
  'tasks.stop': channel(
    z.strictObject({ sessionId: SessionId, taskId: z.string().min(1).max(100) }),
    z.object({ stopped: z.boolean() }),
  ),

  /** Every pending permission request of every session (the inbox). */
  'permissions.pending': channel(Empty, z.array(PermissionRequestView)),
  'permissions.respond': channel(PermissionResponse, z.object({ ok: z.literal(true) })),
  'permissions.log': channel(SessionRef, z.array(PermissionLogEntry)),
  'permissions.rules': channel(ProjectRef, RulesView),
  /** Writes a rule to the project's `.claude/settings.local.json` (e.g. from a past approval). */
  'permissions.addRule': channel(
    z.strictObject({
      projectId: z.string().min(1),
      behavior: z.enum(['allow', 'deny', 'ask']),
      text: z.string().min(1).max(2000),
    }),
    RulesView,
  ),
  'permissions.removeRule': channel(
    z.strictObject({
      projectId: z.string().min(1),
      behavior: z.enum(['allow', 'deny', 'ask']),
      text: z.string().min(1).max(2000),
    }),
    RulesView,
  ),

  /**
   * Attaches to the session's terminal (the user's own shell in the project folder, outside the
   * sandbox), starting it if needed. The snapshot redraws the screen and scrollback; output events
   * whose `offset` is not beyond `offset` are already in it.
   */
  'terminal.open': channel(
    z.strictObject({ sessionId: SessionId, cols: TerminalCols, rows: TerminalRows }),
    TerminalInfo,
  ),
  /** The session's terminal, if one is running or has ended but not been closed. */
  'terminal.find': channel(SessionRef, z.object({ terminalId: z.string().nullable() })),
  'terminal.input': channel(
    z.strictObject({ terminalId: TerminalId, data: z.string().max(1_000_000) }),
    z.object({ ok: z.literal(true) }),
  ),
  'terminal.resize': channel(
    z.strictObject({ terminalId: TerminalId, cols: TerminalCols, rows: TerminalRows }),
    z.object({ ok: z.literal(true) }),
  ),
  /** Flow control: this many characters of output have been drawn. */
  'terminal.ack': channel(
    z.strictObject({ terminalId: TerminalId, chars: z.number().int().nonnegative().max(1e9) }),
    z.object({ ok: z.literal(true) }),
  ),
  /** The view went away (tab switched); output keeps flowing into the kept screen. */
  'terminal.detach': channel(z.strictObject({ terminalId: TerminalId }), z.object({ ok: z.literal(true) })),
  /** Ends the shell and forgets the terminal. */
  'terminal.close': channel(z.strictObject({ terminalId: TerminalId }), z.object({ closed: z.boolean() })),

  /**
   * Workspace trust: what the project's own settings would widen (allow rules, sandbox changes, hooks,
   * MCP servers, env, apiKeyHelper, a permissive default mode) and which of it the person accepted.
   */
  'trust.get': channel(ProjectRef, ProjectTrustView),
  /** "Trust" accepts every widening item the folder has now; "Don't trust" declines them. */
  'trust.decide': channel(
    z.strictObject({ projectId: z.string().min(1).max(500), trust: z.boolean() }),
    ProjectTrustView,
  ),
  'trust.list': channel(Empty, z.array(TrustedFolder)),
  'trust.revoke': channel(z.strictObject({ path: z.string().min(1).max(4096) }), z.array(TrustedFolder)),

  /** Whether a project's Bash commands run inside the OS sandbox, and if not, why. */
  'sandbox.status': channel(ProjectRef, SandboxView),

  'settings.get': channel(Empty, SettingsView),
  'settings.update': channel(SettingsPatch, SettingsView),
  /** Stores (or with null, forgets) the API key; the key never comes back over IPC. */
  'settings.setApiKey': channel(z.strictObject({ key: z.string().min(1).max(500).nullable() }), SettingsView),
} as const;

export const events = {
  /** A session's summary changed (activity, title, usage, cost, model). */
  'sessions.changed': z.object({ session: SessionSummary }),
  'tabs.changed': z.object({ projectId: z.string(), tabs: TabsState }),
  /** A new transcript item; a streaming assistant message arrives first empty, then as deltas. */
  'transcript.appended': z.object({ sessionId: z.string(), item: TranscriptItem }),
  /** An item replaced whole, e.g. a streamed message in its final form. */
  'transcript.updated': z.object({ sessionId: z.string(), item: TranscriptItem }),
  /** A shown message withdrawn (a failed attempt, a reply regenerated with a larger limit). */
  'transcript.removed': z.object({ sessionId: z.string(), itemId: z.string() }),
  /** Text deltas and tool output of every running session, batched (about one frame's worth per message). */
  'stream.batch': z.object({
    deltas: z.array(StreamDelta),
    progress: z.array(ToolProgressDelta),
    taskOutput: z.array(TaskOutputDelta),
  }),
  /** Terminal output; `offset` is where this chunk ends in the terminal's whole output. */
  'terminal.data': z.object({ terminalId: z.string(), data: z.string(), offset: z.number() }),
  'terminal.exit': z.object({ terminalId: z.string(), exitCode: z.number() }),
  /** A background task started or ended. */
  'tasks.changed': z.object({ task: TaskView }),
  /** A tool call finished; its result arrives before the message that collects all results of the round. */
  'tool.result': z.object({ sessionId: z.string(), block: ToolResultBlock }),
  'settings.changed': z.object({ settings: SettingsView }),
  'permissions.requested': z.object({ request: PermissionRequestView }),
  'permissions.resolved': z.object({ requestId: z.string(), sessionId: z.string() }),
  'permissions.logged': z.object({ sessionId: z.string(), entry: PermissionLogEntry }),
  'projects.changed': z.object({ recent: z.array(ProjectInfo) }),
} as const;

export type Requests = typeof requests;
export type Events = typeof events;
export type RequestChannel = keyof Requests;
export type EventName = keyof Events;
export type RequestInput<C extends RequestChannel> = z.input<Requests[C]['input']>;
export type ParsedInput<C extends RequestChannel> = z.output<Requests[C]['input']>;
export type RequestOutput<C extends RequestChannel> = z.infer<Requests[C]['output']>;
export type EventPayload<E extends EventName> = z.infer<Events[E]>;

export const REQUEST_CHANNELS = Object.keys(requests) as RequestChannel[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isRequestChannel(value: unknown): value is RequestChannel {
  return typeof value === 'string' && Object.hasOwn(requests, value);
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(events, value);
}

/** Frames larger than this are refused with PAYLOAD_TOO_LARGE before they are parsed against a schema. */
export const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
