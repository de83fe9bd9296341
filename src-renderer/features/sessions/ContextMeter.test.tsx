import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { useStore } from '../../stores/store';
import { sessionSummary } from '../../test-support/session-summary';
import { ContextMeter, shortTokens } from './ContextMeter';
import { StatusBar } from './StatusBar';

afterEach(cleanup);

describe('the context meter', () => {
  it('short figures: 950, 42k, 167k, 1M, 1.5M', () => {
    expect([950, 42_100, 167_000, 1_000_000, 1_500_000].map(shortTokens)).toEqual([
      '950',
      '42k',
      '167k',
      '1M',
      '1.5M',
    ]);
  });

  it('says "42k / 200k", and how far autocompact is in its tooltip; quiet below 80 % of the line', () => {
    render(<ContextMeter meter={{ tokens: 42_100, window: 200_000, autocompactAt: 167_000 }} />);
    const meter = screen.getByRole('meter', { name: 'Context used' });
    expect(meter.textContent).toBe('42k / 200k');
    expect(meter.title).toBe(
      '42,100 of 200,000 tokens in context; autocompact at 167k (124,900 tokens to go).',
    );
    expect(meter.getAttribute('aria-valuenow')).toBe('42100');
    expect(meter.classList.contains('context-meter-near')).toBe(false);
  });

  it('turns amber past 80 % of the autocompact line, not of the window', () => {
    // 80 % of 167,000 is 133,600: 133,599 is quiet, 133,600 is amber (only 67 % of the window).
    const { rerender } = render(
      <ContextMeter meter={{ tokens: 133_599, window: 200_000, autocompactAt: 167_000 }} />,
    );
    expect(screen.getByRole('meter').classList.contains('context-meter-near')).toBe(false);
    rerender(<ContextMeter meter={{ tokens: 133_600, window: 200_000, autocompactAt: 167_000 }} />);
    expect(screen.getByRole('meter').classList.contains('context-meter-near')).toBe(true);
  });

  it('past the line it says the next request compacts; with autocompact off it says so', () => {
    const { rerender } = render(
      <ContextMeter meter={{ tokens: 170_000, window: 200_000, autocompactAt: 167_000 }} />,
    );
    expect(screen.getByRole('meter').title).toMatch(/autocompact at 167k \(reached/);
    rerender(<ContextMeter meter={{ tokens: 170_000, window: 200_000, autocompactAt: null }} />);
    expect(screen.getByRole('meter').title).toMatch(/automatic compaction is off for this session/);
  });

  it('shows in the status bar for the active session, and follows its summary', () => {
    const s = sessionSummary({
      id: 's1',
      context: { tokens: 42_100, window: 200_000, autocompactAt: 167_000 },
    });
    useStore.setState((st) => ({
      sessions: { ...st.sessions, s1: s },
      tabs: { ...st.tabs, active: 's1' },
    }));
    // The status bar also asks main for the project's MCP servers: a main process with none.
    const main = {
      invoke: () => Promise.resolve({ projectId: 'p1', servers: [] }),
      on: () => () => undefined,
      onConnection: () => () => undefined,
    };
    setClient(main as unknown as CarapaceClient);
    render(<StatusBar />);
    expect(screen.getByTestId('context-meter').textContent).toBe('42k / 200k');
    act(() =>
      useStore.setState((st) => ({
        sessions: {
          ...st.sessions,
          s1: { ...s, context: { tokens: 150_000, window: 200_000, autocompactAt: 167_000 } },
        },
      })),
    );
    expect(screen.getByTestId('context-meter').textContent).toBe('150k / 200k');
    expect(screen.getByTestId('context-meter').classList.contains('context-meter-near')).toBe(true);
  });
});
