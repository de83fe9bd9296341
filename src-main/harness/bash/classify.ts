import type { Redirect, SimpleCommand } from './extract';
import { GIT_READ, readOnlyReason } from './readonly';

/** What a command does, roughly: the UI folds runs of quiet ones (read, search, list) into one line. */
export type Classification = 'search' | 'read' | 'list' | 'write' | 'network' | 'process' | 'other';

const SEARCH = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'find',
  'fd',
  'locate',
  'which',
  'whereis',
]);
const READ = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'wc',
  'file',
  'stat',
  'diff',
  'cmp',
  'jq',
  'sed',
  'awk',
  'cut',
  'sort',
  'uniq',
  'nl',
  'tac',
  'rev',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'md5sum',
  'sha256sum',
  'sha1sum',
  'readlink',
  'realpath',
  'echo',
  'printf',
  'printenv',
  'env',
  'date',
  'column',
]);
const LIST = new Set(['ls', 'tree', 'du', 'df', 'pwd', 'basename', 'dirname']);
const WRITE = new Set([
  'rm',
  'rmdir',
  'mv',
  'cp',
  'mkdir',
  'touch',
  'chmod',
  'chown',
  'chgrp',
  'ln',
  'tee',
  'truncate',
  'dd',
  'install',
  'patch',
  'unzip',
  'tar',
  'gzip',
  'gunzip',
  'zip',
  'shred',
  'rsync',
]);
const NETWORK = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'nc',
  'ncat',
  'netcat',
  'telnet',
  'ping',
  'dig',
  'nslookup',
  'host',
  'ftp',
  'socat',
]);
const PROCESS = new Set([
  'ps',
  'kill',
  'killall',
  'pkill',
  'pgrep',
  'top',
  'htop',
  'jobs',
  'fg',
  'bg',
  'wait',
  'sleep',
  'nohup',
  'systemctl',
  'service',
]);
const GIT_NETWORK = new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote']);
const PACKAGE_NETWORK = new Set(['install', 'add', 'update', 'upgrade', 'ci', 'publish']);

const RANK: Record<Classification, number> = {
  write: 6,
  network: 5,
  process: 4,
  other: 3,
  search: 2,
  read: 1,
  list: 0,
};

function writesByFlag(core: readonly (string | null)[]): boolean {
  return /\b(writes|edits|deletes)\b/.test(readOnlyReason(core) ?? '');
}

function classifyOne(c: SimpleCommand): Classification {
  const [name, ...args] = c.core;
  if (typeof name !== 'string') return 'other';
  const writesFile = c.redirects.some((r) => /^(>|>>|>\||&>|&>>)$/.test(r.op) && r.target !== '/dev/null');
  if (writesFile) return 'write';
  if (name === 'git') {
    const sub = args.find((a) => typeof a === 'string' && !a.startsWith('-'));
    if (sub && GIT_NETWORK.has(sub)) return 'network';
    if (sub === 'grep') return 'search';
    if (sub && GIT_READ.has(sub)) return 'read';
    return 'write';
  }
  if (['npm', 'pnpm', 'yarn', 'pip', 'pip3', 'cargo', 'go', 'apt', 'apt-get', 'brew'].includes(name)) {
    const sub = args.find((a) => typeof a === 'string' && !a.startsWith('-'));
    return sub && PACKAGE_NETWORK.has(sub) ? 'network' : 'other';
  }
  if (name === 'sed' && args.some((a) => typeof a === 'string' && a.startsWith('-i'))) return 'write';
  // A reading program told to write (`xxd IN OUT`, `sort -o`, `find -delete`) is a write.
  if ((SEARCH.has(name) || READ.has(name) || LIST.has(name)) && writesByFlag(c.core)) return 'write';
  if (SEARCH.has(name)) return 'search';
  if (READ.has(name)) return 'read';
  if (LIST.has(name)) return 'list';
  if (WRITE.has(name)) return 'write';
  if (NETWORK.has(name)) return 'network';
  if (PROCESS.has(name)) return 'process';
  return 'other';
}

/** The class of a whole command line: the weightiest of its parts (a pipeline that writes is a write). */
export function classify(
  commands: readonly SimpleCommand[],
  redirects: readonly Redirect[] = [],
): Classification {
  if (redirects.some((r) => /^(>|>>|>\||&>|&>>)$/.test(r.op) && r.target !== '/dev/null')) return 'write';
  let best: Classification = 'other';
  let rank = -1;
  for (const c of commands) {
    const k = classifyOne(c);
    if (RANK[k] > rank) {
      best = k;
      rank = RANK[k];
    }
  }
  return rank < 0 ? 'other' : best;
}
