import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageItem, ToolResultBlock, ToolUseBlock } from '@shared/domain/messages';
import { useStore } from '../../stores/store';
import { ToolCard } from './ToolCard';

const bash: ToolUseBlock = {
  type: 'tool_use',
  id: 't1',
  name: 'Bash',
  input: { command: 'make test', description: 'Run the tests' },
};
const message: MessageItem = {
  kind: 'message',
  id: 'm1',
  role: 'assistant',
  content: [bash],
  createdAt: '',
  status: 'complete',
};
const result = (exitCode: number | null, content: string): ToolResultBlock => ({
  type: 'tool_result',
  tool_use_id: 't1',
  content,
  ...(exitCode === 0 ? {} : { is_error: true }),
  meta: { durationMs: 1500, display: { kind: 'bash', exitCode, timedOut: false } },
});

const initial = useStore.getState();
beforeEach(() => {
  useStore.setState(initial, true);
  useStore.getState().setTranscript('s', 's', [message]);
});
afterEach(cleanup);

const card = () => document.querySelector<HTMLDetailsElement>('.tool-card');
const progress = (text: string) =>
  act(() => useStore.getState().applyDeltas([], [{ sessionId: 's', agentId: 's', toolUseId: 't1', text }]));
const finish = (block: ToolResultBlock) => act(() => useStore.getState().setToolResult('s', 's', block));

describe('ToolCard for Bash', () => {
  it('is open on the command and live output while running, and folds once it succeeded', () => {
    render(<ToolCard sessionId="s" agentId="s" block={bash} running />);
    progress('compiling…\n');
    expect(card()?.open).toBe(true);
    expect(card()?.querySelector('.tool-command')?.textContent).toBe('$ make test');
    expect(card()?.querySelector('.tool-live')?.textContent).toBe('compiling…\n');
    finish(result(0, 'all passed'));
    expect(card()?.dataset['state']).toBe('done');
    expect(card()?.open).toBe(false);
    expect(card()?.querySelector('.tool-detail')?.textContent).toBe('exit 0');
    expect(card()?.querySelector('.tool-duration')?.textContent).toBe('1.5 s');
  });

  it('stays open when the command failed, and says "stopped" rather than "exit null"', () => {
    render(<ToolCard sessionId="s" agentId="s" block={bash} running />);
    finish(result(null, 'Interrupted by user'));
    expect(card()?.dataset['state']).toBe('error');
    expect(card()?.open).toBe(true);
    expect(card()?.querySelector('.tool-detail')?.textContent).toBe('stopped');
    expect(card()?.textContent).not.toContain('null');
  });

  it("keeps the person's own toggle when the card's state changes", () => {
    render(<ToolCard sessionId="s" agentId="s" block={bash} running />);
    const el = card();
    if (!el) throw new Error('no card');
    // The person folds the running card: it stays folded when the command then fails.
    el.open = false;
    fireEvent(el, new Event('toggle'));
    finish(result(2, 'boom'));
    expect(card()?.open).toBe(false);
  });

  it("keeps the person's toggle when the card scrolls out of the list and back", () => {
    const first = render(<ToolCard sessionId="s" agentId="s" block={bash} running={false} />);
    finish(result(0, 'all passed'));
    const el = card();
    if (!el) throw new Error('no card');
    // The person opens the folded card, then it scrolls out (the virtualised list unmounts it).
    el.open = true;
    fireEvent(el, new Event('toggle'));
    first.unmount();
    render(<ToolCard sessionId="s" agentId="s" block={bash} running={false} />);
    expect(card()?.open).toBe(true);
  });
});
