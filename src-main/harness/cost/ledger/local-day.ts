import type { Day } from '@shared/domain/cost-report';

/**
 * Calendar days in the process's local time zone. Records are bucketed by comparing their epoch ms
 * with each day's local midnight, so a day of 23 or 25 hours (a DST change) is still one day.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** The local day an instant falls on, `YYYY-MM-DD`. */
export function localDay(epochMs: number): Day {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Epoch ms of a day's local midnight; `offset` days later (may be negative). */
export function dayStart(day: Day, offset = 0): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + offset).getTime();
}

/** Every day from `from` to `to` inclusive, with each day's start and the end of the last one. */
export function daysBetween(from: Day, to: Day): { days: Day[]; starts: number[] } {
  const days: Day[] = [];
  const starts: number[] = [];
  const end = dayStart(to, 1);
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  for (let i = 0; ; i++) {
    const date = new Date(y, m - 1, d + i);
    const start = date.getTime();
    if (!(start < end)) break;
    days.push(`${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`);
    starts.push(start);
  }
  starts.push(end);
  return { days, starts };
}

/** Index of the day an instant falls in (starts has one more entry than days), or -1 outside. */
export function dayIndex(starts: readonly number[], at: number): number {
  if (starts.length < 2 || at < (starts[0] ?? 0) || at >= (starts[starts.length - 1] ?? 0)) return -1;
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
