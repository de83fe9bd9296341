import { type z } from 'zod';
import * as agentFiles from './contract/agent-files';
import * as agents from './contract/agents';
import * as app from './contract/app';
import * as changes from './contract/changes';
import * as commands from './contract/commands';
import * as cost from './contract/cost';
import * as hooks from './contract/hooks';
import * as mcp from './contract/mcp';
import * as plugins from './contract/plugins';
import * as memory from './contract/memory';
import * as models from './contract/models';
import * as permissions from './contract/permissions';
import * as projects from './contract/projects';
import * as rewind from './contract/rewind';
import * as search from './contract/search';
import * as sessions from './contract/sessions';
import * as settings from './contract/settings';
import * as tabs from './contract/tabs';
import * as tasks from './contract/tasks';
import * as teams from './contract/teams';
import * as terminal from './contract/terminal';
import * as trust from './contract/trust';
import * as worktrees from './contract/worktrees';

/**
 * The whole IPC contract: every request channel as `{input, output}` and every event as a payload schema.
 * Both transports (Electron IPC and the serve-mode WebSocket) carry exactly these, and the main process
 * parses every input against them: the renderer is untrusted.
 *
 * Each namespace is defined in its own fragment under `contract/` (shared small schemas in
 * `contract/common.ts`); this file is the single entry point that joins them. A channel or event
 * belongs to exactly one fragment (contract-fragments.test.ts checks it).
 */

export { AppInfo } from './contract/app';
export { TerminalInfo } from './contract/terminal';

export const requests = {
  ...app.requests,
  ...projects.requests,
  ...sessions.requests,
  ...agents.requests,
  ...tabs.requests,
  ...models.requests,
  ...tasks.requests,
  ...teams.requests,
  ...permissions.requests,
  ...terminal.requests,
  ...trust.requests,
  ...settings.requests,
  ...memory.requests,
  ...search.requests,
  ...cost.requests,
  ...commands.requests,
  ...hooks.requests,
  ...mcp.requests,
  ...plugins.requests,
  ...agentFiles.requests,
  ...changes.requests,
  ...worktrees.requests,
  ...rewind.requests,
} as const;

export const events = {
  ...sessions.events,
  ...agents.events,
  ...tabs.events,
  ...terminal.events,
  ...tasks.events,
  ...teams.events,
  ...settings.events,
  ...permissions.events,
  ...projects.events,
  ...app.events,
  ...models.events,
  ...trust.events,
  ...memory.events,
  ...search.events,
  ...cost.events,
  ...commands.events,
  ...hooks.events,
  ...mcp.events,
  ...plugins.events,
  ...agentFiles.events,
  ...changes.events,
  ...worktrees.events,
  ...rewind.events,
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
