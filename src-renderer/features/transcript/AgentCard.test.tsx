import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageItem, ToolUseBlock } from '@shared/domain/messages';
import type { SessionSummary } from '@shared/domain/session';
import { ZERO_USAGE } from '@shared/domain/usage';
import { useStore } from '../../stores/store';
import { agentSummary } from '../../test-support/agent-summary';
import { lastLine } from './AgentCard';
import { Transcript } from './Transcript';

const session: SessionSummary = {
  id: 's',
  projectId: 'p',
  title: 'Review',
  model: 'claude-sonnet-4-5',
  permissionMode: 'default',
  activity: 'tools',
  waitingForUser: false,
  createdAt: '',
  updatedAt: '',
  usage: ZERO_USAGE,
  costUsd: 0,
  costKind: 'priced',
  messageCount: 1,
  lastError: null,
  coordinator: false,
  background: false,
};

const call = (id: string, description: string, type: string): ToolUseBlock => ({
  type: 'tool_use',
  id,
  name: 'Agent',
  input: { description, prompt: `Please ${description}`, subagent_type: type },
});

const parent: MessageItem = {
  kind: 'message',
  id: 'm1',
  role: 'assistant',
  content: [call('t1', 'Explore the parser', 'Explore'), call('t2', 'Verify the fix', 'Verification')],
  createdAt: '',
  status: 'complete',
};

const streaming = (id: string, text: string): MessageItem => ({
  kind: 'message',
  id,
  role: 'assistant',
  content: [{ type: 'text', text }],
  createdAt: '',
  status: 'streaming',
});

const initial = useStore.getState();

beforeEach(() => {
  useStore.setState(initial, true);
  const s = useStore.getState();
  s.setSession(session);
  s.setTranscript('s', 's', [parent]);
  s.setAgents('s', [
    agentSummary({
      id: 'a1',
      toolUseId: 't1',
      name: 'Explore the parser',
      agentType: 'Explore',
      model: 'claude-haiku-4-5',
      costUsd: 0.0012,
      totalCostUsd: 0.0012,
    }),
    agentSummary({
      id: 'a2',
      toolUseId: 't2',
      name: 'Verify the fix',
      agentType: 'Verification',
      state: 'done',
      verdict: 'PASS',
      verdictReasons: 'all 12 tests pass',
      costUsd: 0.002,
      totalCostUsd: 0.005,
    }),
  ]);
  s.setTranscript('s', 'a1', [streaming('c1', 'Reading parser.ts')]);
  s.setTranscript('s', 'a2', [{ ...streaming('c2', 'Ran the tests.\nVERDICT: PASS'), status: 'complete' }]);
});

afterEach(cleanup);

const card = (id: string) => document.querySelector<HTMLDetailsElement>(`[data-agent-id="${id}"]`);

describe('agent cards in a transcript', () => {
  it('shows each Agent call as one card with its sub-agent, live line, state and costs', () => {
    render(<Transcript sessionId="s" />);
    expect(document.querySelectorAll('[data-tool="Agent"]')).toHaveLength(2);
    const explore = card('a1');
    expect(explore?.dataset['agentState']).toBe('working');
    expect(explore?.textContent).toContain('claude-haiku-4-5');
    expect(explore?.querySelector('[data-testid="agent-progress"]')?.textContent).toBe('Reading parser.ts');
    // Less than a cent reads as such (money.ts); the exact figures are in the hover.
    expect(explore?.querySelector('[data-testid="agent-cost"]')?.textContent).toBe(
      '<$0.01 own · <$0.01 total',
    );
    expect(explore?.querySelector('[data-testid="agent-cost"]')?.getAttribute('title')).toBe(
      '$0.0012 own · $0.0012 total',
    );
    // Its text streams into the card's line; a tool call in progress takes its place.
    act(() =>
      useStore
        .getState()
        .applyDeltas([{ sessionId: 's', agentId: 'a1', itemId: 'c1', index: 0, text: ' and lexer.ts' }]),
    );
    expect(explore?.querySelector('[data-testid="agent-progress"]')?.textContent).toBe(
      'Reading parser.ts and lexer.ts',
    );
    act(() =>
      useStore
        .getState()
        .upsertAgent({ ...useStore.getState().agents['s']!['a1']!, activity: 'Grep: parseArgs' }),
    );
    expect(explore?.querySelector('[data-testid="agent-progress"]')?.textContent).toBe('Grep: parseArgs');

    const verify = card('a2');
    expect(verify?.dataset['agentState']).toBe('done');
    expect(screen.getByLabelText('Verdict: PASS').getAttribute('title')).toBe('all 12 tests pass');
    expect(verify?.querySelector('[data-testid="agent-cost"]')?.textContent).toBe(
      '<$0.01 own · <$0.01 total',
    );
    expect(verify?.querySelector('[data-testid="agent-cost"]')?.getAttribute('title')).toBe(
      '$0.002 own · $0.005 total',
    );
  });

  it('expands to the sub-agent’s own transcript', () => {
    render(<Transcript sessionId="s" />);
    const verify = card('a2') as HTMLDetailsElement;
    expect(screen.queryByRole('log', { name: 'Transcript of Verify the fix' })).toBeNull();
    verify.open = true;
    fireEvent(verify, new Event('toggle'));
    expect(screen.getByRole('log', { name: 'Transcript of Verify the fix' }).textContent).toContain(
      'Ran the tests.',
    );
  });

  it('falls back to the call’s result when the window has no card for the agent (after a reload)', () => {
    useStore.setState({ agents: {} });
    useStore.getState().setToolResult('s', 's', {
      type: 'tool_result',
      tool_use_id: 't2',
      content: 'All good.\nVERDICT: PASS',
      meta: {
        durationMs: 4200,
        display: {
          kind: 'agent',
          agentId: 'a2',
          agentType: 'Verification',
          background: false,
          costUsd: 0.002,
          totalCostUsd: 0.002,
          verdict: 'FAIL',
          verdictReasons: 'a test fails',
        },
      },
    });
    render(<Transcript sessionId="s" />);
    const verify = card('a2');
    expect(verify?.dataset['agentState']).toBe('done');
    expect(screen.getByLabelText('Verdict: FAIL')).toBeTruthy();
    // The other call has neither a card nor a result: it has not started.
    expect(
      document.querySelector('[data-tool="Agent"]:not([data-agent-id])')?.getAttribute('data-agent-state'),
    ).toBe('pending');
  });

  it('shows the newest words of a streaming line, and the start of a finished one', () => {
    const long = `${'a'.repeat(150)} newest`;
    expect(lastLine(`first\n\n${long}`, true)).toBe(`…${long.slice(-119)}`);
    expect(lastLine(`first\n${long}\n`, false)).toBe(long);
    expect(lastLine('short', true)).toBe('short');
  });
});
