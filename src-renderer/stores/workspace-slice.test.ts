import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '@shared/domain/session';
import { badgeFor, initialWorkspaceState, isInView } from './workspace-slice';

const session = (over: Partial<SessionSummary>): SessionSummary => ({
  id: 's',
  projectId: 'p',
  title: 't',
  model: 'demo',
  permissionMode: 'default',
  activity: 'idle',
  waitingForUser: false,
  createdAt: '',
  updatedAt: '',
  usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
  costUsd: 0,
  costKind: 'demo',
  messageCount: 0,
  lastError: null,
  coordinator: false,
  background: false,
  ...over,
});

describe('badges', () => {
  it('shows the most urgent state first', () => {
    expect(badgeFor(session({ waitingForUser: true, activity: 'streaming' }), true)).toBe('waiting');
    expect(badgeFor(session({ activity: 'error' }), true)).toBe('error');
    expect(badgeFor(session({ activity: 'thinking' }), true)).toBe('working');
    expect(badgeFor(session({}), true)).toBe('unseen');
    expect(badgeFor(session({}), false)).toBe('idle');
  });

  it('counts a session as in view only when its panel is on screen', () => {
    const state = { ...initialWorkspaceState, tabs: { open: ['a', 'b'], active: 'a' } };
    expect(isInView(state, 'a', false)).toBe(true);
    expect(isInView(state, 'b', false)).toBe(false);
    expect(isInView(state, 'a', true)).toBe(false);
    expect(isInView({ ...state, layout: 'grid' }, 'b', false)).toBe(true);
  });
});
