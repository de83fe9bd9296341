import { randomUUID } from 'node:crypto';

/**
 * The end-of-command handshake. node-pty can lose the last few KB of output when a process exits
 * while output is still in flight (it stops reading 200 ms after the exit, or on the first EIO). So
 * the script's EXIT trap prints `<marker>:<status>:<cwd in base64>;` and then waits for one key:
 * everything before the marker has been read by the time we see it, and only then is the shell
 * released. The marker goes to a copy of the terminal taken before the command ran and the key is
 * read from another, so a command that redirects its own output (`exec > log`) or the terminal's
 * mode changes nothing. The command itself reads /dev/null: nothing waits for input that never comes.
 * The cwd travels in the marker rather than a file the sandboxed command could replace.
 */
export interface EndMarker {
  /** Random per run, so output cannot contain it by accident. */
  marker: string;
}

export function newEndMarker(): EndMarker {
  return { marker: `CARAPACE_END_${randomUUID().replace(/-/g, '')}` };
}

/** The script: the trap, then the command (stdin from /dev/null). */
export function wrapWithEndMarker(m: EndMarker, command: string, prelude = ''): string {
  // Split in two so that an xtrace of the trap cannot print the marker followed by `:<digits>:`.
  const half = Math.floor(m.marker.length / 2);
  const trap =
    `exec 9>&1 8<&0\n` +
    `__carapace_end() { __carapace_status=$?; ` +
    `printf '%s%s:%d:%s;' '${m.marker.slice(0, half)}' '${m.marker.slice(half)}' "$__carapace_status" "$(pwd -P 2>/dev/null | base64 | tr -d '\\n')" >&9; ` +
    `read -r -n 1 -t 10 __carapace_ack <&8 2>/dev/null; exit "$__carapace_status"; }\n` +
    `trap __carapace_end EXIT\n`;
  return `${prelude}${trap}{\n${command}\n} </dev/null\n`;
}

export interface MarkerFound {
  /** Where the marker starts in the text searched. */
  at: number;
  status: number;
  /** The directory the shell ended in, or null if it could not say. */
  cwd: string | null;
}

/**
 * Finds the marker in `text` from `from`: null if absent, `{ at, partial: true }` while its status
 * and directory have not all arrived yet.
 */
export function findEndMarker(
  m: EndMarker,
  text: string,
  from: number,
): MarkerFound | { at: number; partial: true } | null {
  const at = text.indexOf(m.marker, from);
  if (at < 0) return null;
  const rest = /^:(\d+):([A-Za-z0-9+/=]*);/.exec(
    text.slice(at + m.marker.length, at + m.marker.length + 8192),
  );
  if (!rest) return { at, partial: true };
  const decoded = Buffer.from(rest[2] ?? '', 'base64')
    .toString('utf8')
    .replace(/\n$/, '');
  return { at, status: Number(rest[1]), cwd: decoded === '' ? null : decoded };
}
