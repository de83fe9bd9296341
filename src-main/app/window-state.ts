import { z } from 'zod';
import { readJsonFile, writeJsonFileAtomic } from '../platform/json-file';

export const WindowBounds = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400),
  height: z.number().int().min(300),
  maximized: z.boolean().default(false),
});
export type WindowBounds = z.infer<typeof WindowBounds>;

export interface DisplayArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function loadWindowBounds(file: string): WindowBounds | null {
  const read = readJsonFile(file, WindowBounds);
  return read.kind === 'ok' ? read.value : null;
}

export function saveWindowBounds(file: string, bounds: WindowBounds): void {
  writeJsonFileAtomic(file, bounds);
}

/**
 * Remembered bounds are used only if the window would still be visible (a monitor may have gone);
 * at least 100 × 50 pixels of its title area must fall on some display.
 */
export function visibleOn(bounds: WindowBounds, displays: readonly DisplayArea[]): boolean {
  return displays.some((d) => {
    const overlapX = Math.min(bounds.x + bounds.width, d.x + d.width) - Math.max(bounds.x, d.x);
    const overlapY = Math.min(bounds.y + 50, d.y + d.height) - Math.max(bounds.y, d.y);
    return overlapX >= 100 && overlapY >= 50;
  });
}
