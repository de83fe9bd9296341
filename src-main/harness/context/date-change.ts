/** The day the system prompt gives (the same form: the date in UTC, YYYY-MM-DD). */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * A note that rides with the person's message when the day has changed since the session began: the
 * system prompt keeps the first day (it is the cached prefix), so the new one travels in the messages.
 */
export function dateChangeNote(day: string): string {
  return `<system-reminder>The date has changed since this session started: today is ${day}.</system-reminder>`;
}
