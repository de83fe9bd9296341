import type { CostRange } from '../../stores/cost-slice';

/** A local calendar day, `YYYY-MM-DD` (the main process counts days in local time too). */
export function localDay(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return localDay(new Date(y, m - 1, d + n));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The inclusive days a range covers, or a plain-English reason it cannot be asked for. */
export function rangeDays(range: CostRange, now: Date): { from: string; to: string } | { error: string } {
  const today = localDay(now);
  if (range.kind === 'today') return { from: today, to: today };
  if (range.kind === 'days') return { from: addDays(today, 1 - range.days), to: today };
  if (!DAY.test(range.from) || !DAY.test(range.to)) return { error: 'Choose both a start and an end day.' };
  if (range.from > range.to) return { error: 'The start day is after the end day.' };
  return { from: range.from, to: range.to };
}
