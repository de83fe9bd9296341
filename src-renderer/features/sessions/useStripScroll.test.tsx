import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useStripScroll } from './useStripScroll';

/**
 * jsdom lays nothing out and has no ResizeObserver: the strip is given a geometry by hand (100 px
 * wide, 500 px of tabs, the active tab at 300–350 px) and size changes are reported by the test.
 */
const observed: { targets: Element[]; report: () => void }[] = [];
class ReportedResizeObserver {
  entry: { targets: Element[]; report: () => void };
  constructor(callback: () => void) {
    this.entry = { targets: [], report: callback };
    observed.push(this.entry);
  }
  observe(target: Element): void {
    this.entry.targets.push(target);
  }
  disconnect(): void {
    observed.splice(observed.indexOf(this.entry), 1);
  }
}

function Strip({ active }: { active: string | null }) {
  const { ref } = useStripScroll(active, 3);
  return (
    <div ref={ref} data-testid="strip">
      <span id="tab-far">far</span>
    </div>
  );
}

function laidOut(strip: HTMLElement): void {
  let scrollLeft = 0;
  Object.defineProperties(strip, {
    clientWidth: { value: 100 },
    scrollWidth: { value: 500 },
    scrollLeft: { get: () => scrollLeft, set: (v: number) => (scrollLeft = Math.max(0, Math.min(400, v))) },
  });
  strip.getBoundingClientRect = () => new DOMRect(0, 0, 100, 30);
  const tab = strip.querySelector('#tab-far') as HTMLElement;
  tab.getBoundingClientRect = () => new DOMRect(300 - scrollLeft, 0, 50, 30);
}

beforeEach(() => {
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = ReportedResizeObserver;
});
afterEach(() => {
  cleanup();
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
});

describe('useStripScroll', () => {
  it('reveals the active tab, and keeps it revealed as it grows, but not once the person scrolls away', () => {
    const { getByTestId, rerender } = render(<Strip active={null} />);
    const strip = getByTestId('strip');
    laidOut(strip);
    rerender(<Strip active="tab-far" />);
    expect(strip.scrollLeft).toBe(250);

    const tab = strip.querySelector('#tab-far') as Element;
    const tabResized = () => {
      for (const o of observed.filter((x) => x.targets.includes(tab))) o.report();
    };
    // The browser moves the strip by itself (focusing a field in it); the tab then grows: back in view.
    strip.scrollLeft = 100;
    act(tabResized);
    expect(strip.scrollLeft).toBe(250);
    // The person wheels to the start of the strip; the badge changes: the strip stays where they put it.
    fireEvent.wheel(strip, { deltaY: -400 });
    expect(strip.scrollLeft).toBe(0);
    act(tabResized);
    expect(strip.scrollLeft).toBe(0);
    // Another tab made active is revealed again, and kept in view as it grows.
    rerender(<Strip active={null} />);
    rerender(<Strip active="tab-far" />);
    expect(strip.scrollLeft).toBe(250);
    strip.scrollLeft = 100;
    act(tabResized);
    expect(strip.scrollLeft).toBe(250);
  });
});
