import { describe, expect, it } from 'vitest';
import { events, EVENT_NAMES, REQUEST_CHANNELS, requests } from './contract';
import * as agentFiles from './contract/agent-files';
import * as agents from './contract/agents';
import * as app from './contract/app';
import * as changes from './contract/changes';
import * as commands from './contract/commands';
import * as cost from './contract/cost';
import * as hooks from './contract/hooks';
import * as mcp from './contract/mcp';
import * as memory from './contract/memory';
import * as models from './contract/models';
import * as permissions from './contract/permissions';
import * as plugins from './contract/plugins';
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
 * Guard of the split of the contract into per-namespace fragments: the channels and events are exactly
 * those of the single-file contract, and each is defined in one fragment only (a spread would
 * otherwise let a later fragment silently replace an earlier one's schema).
 */

const FRAGMENTS = {
  agentFiles,
  agents,
  app,
  changes,
  commands,
  memory,
  cost,
  hooks,
  mcp,
  models,
  permissions,
  plugins,
  projects,
  rewind,
  search,
  sessions,
  settings,
  tabs,
  tasks,
  teams,
  terminal,
  trust,
  worktrees,
};

/** Every request channel of the contract (those before the split, then the ones added since). */
const CHANNELS_BEFORE_SPLIT = [
  'agents.list',
  'agents.transcript',
  'agents.stop',
  'sessions.setBackground',
  'teams.get',
  'teams.message',
  'teams.decidePlan',
  'projects.opened',
  'app.info',
  'projects.recent',
  'projects.current',
  'projects.open',
  'projects.forget',
  'fs.listDirectory',
  'fs.pickDirectory',
  'sessions.list',
  'sessions.create',
  'sessions.get',
  'sessions.send',
  'sessions.stop',
  'sessions.rename',
  'sessions.setModel',
  'sessions.setPermissionMode',
  'sessions.modes',
  'sessions.retry',
  'sessions.archive',
  'sessions.archived',
  'sessions.unarchive',
  'sessions.delete',
  'sessions.trash',
  'sessions.restore',
  'sessions.deleteForever',
  'tabs.open',
  'tabs.close',
  'tabs.activate',
  'tabs.reorder',
  'models.list',
  'tasks.list',
  'tasks.stop',
  'permissions.pending',
  'permissions.respond',
  'permissions.log',
  'permissions.rules',
  'permissions.addRule',
  'permissions.removeRule',
  'terminal.open',
  'terminal.find',
  'terminal.input',
  'terminal.resize',
  'terminal.ack',
  'terminal.detach',
  'terminal.close',
  'trust.get',
  'trust.decide',
  'trust.list',
  'trust.revoke',
  'sandbox.status',
  'settings.get',
  'settings.update',
  'settings.setApiKey',
  'memory.tree',
  'memory.read',
  'memory.write',
  'memory.create',
  'memory.rename',
  'memory.delete',
  'memory.trash',
  'memory.restore',
  'memory.loaded',
  'memory.consolidate',
  'memory.watch',
  'memory.unwatch',
  'cost.report',
  'cost.session',
  'cost.export',
  'budgets.get',
  'budgets.set',
  'budgets.pending',
  'budgets.respond',
  'hooks.list',
  'search.query',
  'commands.list',
  'mcp.list',
  'mcp.restart',
  'mcp.logs',
  'mcp.setEnabled',
  'mcp.add',
  'changes.list',
  'changes.diff',
  'changes.stageFile',
  'changes.stageHunk',
  'changes.discardHunk',
  'changes.suggestMessage',
  'changes.commit',
  'changes.openInEditor',
  'rewind.plan',
  'rewind.run',
  'rewind.fork',
  'plugins.list',
  'plugins.install',
  'plugins.setEnabled',
  'plugins.remove',
  'worktrees.info',
  'worktrees.createSession',
  'worktrees.status',
  'worktrees.merge',
  'worktrees.remove',
  'worktrees.loss',
  'worktrees.continueInMain',
  'agentFiles.list',
  'agentFiles.read',
  'agentFiles.create',
  'agentFiles.save',
  'agentFiles.delete',
];

/** Every event of the contract before the split. */
const EVENTS_BEFORE_SPLIT = [
  'agents.changed',
  'teams.changed',
  'teams.message',
  'sessions.changed',
  'sessions.removed',
  'tabs.changed',
  'transcript.appended',
  'transcript.updated',
  'transcript.removed',
  'stream.batch',
  'terminal.data',
  'terminal.exit',
  'tasks.changed',
  'tool.result',
  'settings.changed',
  'permissions.requested',
  'permissions.resolved',
  'permissions.logged',
  'projects.changed',
  'memory.changed',
  'budgets.requested',
  'budgets.resolved',
  'budgets.warning',
  'cost.updated',
  'mcp.changed',
];

const sorted = (names: readonly string[]): string[] => [...names].sort();

/** For each name, the fragments that define it. */
function owners(part: 'requests' | 'events'): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [fragment, module] of Object.entries(FRAGMENTS)) {
    for (const name of Object.keys(module[part])) found.set(name, [...(found.get(name) ?? []), fragment]);
  }
  return found;
}

describe('IPC contract fragments', () => {
  it('define exactly the request channels and events of the contract before the split', () => {
    expect(sorted(REQUEST_CHANNELS)).toEqual(sorted(CHANNELS_BEFORE_SPLIT));
    expect(sorted(EVENT_NAMES)).toEqual(sorted(EVENTS_BEFORE_SPLIT));
    expect(sorted([...owners('requests').keys()])).toEqual(sorted(CHANNELS_BEFORE_SPLIT));
    expect(sorted([...owners('events').keys()])).toEqual(sorted(EVENTS_BEFORE_SPLIT));
  });

  it('define each channel and each event in one fragment only', () => {
    for (const part of ['requests', 'events'] as const) {
      const twice = [...owners(part)].filter(([, fragments]) => fragments.length > 1);
      expect(twice).toEqual([]);
    }
  });

  it('are joined as they are, every schema the fragment’s own', () => {
    for (const module of Object.values(FRAGMENTS)) {
      for (const [name, schema] of Object.entries(module.requests)) {
        expect(requests[name as keyof typeof requests]).toBe(schema);
      }
      for (const [name, schema] of Object.entries(module.events)) {
        expect(events[name as keyof typeof events]).toBe(schema);
      }
    }
  });
});
