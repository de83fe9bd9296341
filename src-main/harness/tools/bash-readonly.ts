/**
 * A deliberately small read-only test for a command line: one simple command from a short list, no
 * shell syntax at all. It decides only whether a Bash call may run beside others (concurrency);
 * anything it is unsure of counts as writing. The full analysis (tree-sitter, flag allowlists,
 * injection checks) replaces it in the permission engine.
 */
const READ_ONLY = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'pwd',
  'echo',
  'stat',
  'file',
  'du',
  'which',
  'date',
  'true',
  'false',
  'sleep',
  'whoami',
  'uname',
  'env',
]);
const GIT_READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'branch', 'rev-parse']);

export function isPlainReadOnlyCommand(command: string): boolean {
  if (/[;&|<>`$(){}\n\r\\*?[\]!#~'"]/.test(command)) return false;
  const words = command.trim().split(/\s+/);
  const [name, sub] = words;
  if (name === undefined || name === '') return false;
  if (name === 'git')
    return (
      sub !== undefined &&
      GIT_READ_ONLY.has(sub) &&
      !words.some((w) => w.startsWith('--output') || w === '-c')
    );
  return READ_ONLY.has(name);
}
