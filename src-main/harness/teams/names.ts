/**
 * Worker names: how the coordinator and the person address a worker. They never name a file (files
 * are keyed by agent id), but they are kept to plain words anyway so a name cannot look like a path,
 * an address for everyone (`*`) or one of the team's own parties.
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Names that mean someone other than a worker in messages. */
const RESERVED = new Set(['coordinator', 'person', 'user', 'team', 'all', 'everyone']);

/** Agent ids the team gives its workers; anything else read from disk is refused. */
export const AGENT_ID = /^agent-[0-9a-f]{16}$/;

/** Why a name cannot be a worker's, or null when it can. */
export function nameProblem(name: string): string | null {
  if (!NAME.test(name))
    return `"${name}" is not a valid worker name: use 1 to 64 letters, digits, "-" or "_", starting with a letter or digit.`;
  if (RESERVED.has(name.toLowerCase())) return `"${name}" is reserved; choose another worker name.`;
  return null;
}

/** Names are unique in a team regardless of case ("Alice" and "alice" are one worker). */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
