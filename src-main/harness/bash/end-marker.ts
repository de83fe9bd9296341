import { randomUUID } from 'node:crypto';

/**
 * The end-of-command handshake. node-pty can lose the last few KB of output when a process exits
 * while output is still in flight (it stops reading 200 ms after the exit, or on the first EIO). So
 * the script's EXIT trap prints `<marker>:<status>:h<cwd in hex>;` and then waits for one key:
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

/**
 * The script: the trap, then the command (stdin from /dev/null). `ack: false` for a terminal that
 * outlives the command (the long-lived sandboxed shell, sandbox-shell.ts): nothing is lost when the
 * command's shell exits there, so the trap need not wait for the key.
 */
export function wrapWithEndMarker(
  m: EndMarker,
  command: string,
  prelude = '',
  o: { ack?: boolean } = {},
): string {
  const ack = o.ack ?? true;
  // Split in two so that an xtrace of the trap cannot print the marker followed by `:<digits>:`.
  const half = Math.floor(m.marker.length / 2);
  const trap =
    (ack ? `exec 9>&1 8<&0\n` : `exec 9>&1\n`) +
    // The directory in hex, with builtins only: each process a command's end starts costs a fork
    // and an exec (a few ms on a loaded machine), and `true` should cost one process, not four.
    `__carapace_end() { __carapace_status=$?; { set +x; } 2>/dev/null; local LC_ALL=C __d= __h= __i; ` +
    `builtin cd -P . 2>/dev/null && __d=$PWD; ` +
    `for (( __i = 0; __i < \${#__d}; __i++ )); do builtin printf -v __h '%s%02x' "$__h" "'\${__d:__i:1}"; done; ` +
    `builtin printf '%s%s:%d:h%s;' '${m.marker.slice(0, half)}' '${m.marker.slice(half)}' "$__carapace_status" "$__h" >&9; ` +
    (ack ? `read -r -n 1 -t 10 __carapace_ack <&8 2>/dev/null; ` : '') +
    `exit "$__carapace_status"; }\n` +
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
  const rest = /^:(\d+):(h[0-9a-f]*|[A-Za-z0-9+/=]*);/.exec(
    text.slice(at + m.marker.length, at + m.marker.length + 8192),
  );
  if (!rest) return { at, partial: true };
  const encoded = rest[2] ?? '';
  const decoded = (
    encoded.startsWith('h') ? Buffer.from(encoded.slice(1), 'hex') : Buffer.from(encoded, 'base64')
  )
    .toString('utf8')
    .replace(/\n$/, '');
  return { at, status: Number(rest[1]), cwd: decoded === '' ? null : decoded };
}
