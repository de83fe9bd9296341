import { describe, expect, it } from 'vitest';
import { visibleOn } from './window-state';

describe('remembered window bounds', () => {
  const display = { x: 0, y: 0, width: 1920, height: 1080 };
  it('are used when the title area is on a display', () => {
    expect(visibleOn({ x: 100, y: 100, width: 800, height: 600, maximized: false }, [display])).toBe(true);
  });
  it('are dropped when their monitor is gone', () => {
    expect(visibleOn({ x: 2500, y: 100, width: 800, height: 600, maximized: false }, [display])).toBe(false);
    expect(visibleOn({ x: 100, y: -500, width: 800, height: 600, maximized: false }, [display])).toBe(false);
  });
});
