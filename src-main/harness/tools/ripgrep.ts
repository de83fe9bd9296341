import { execFile } from 'node:child_process';
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

let cached: string | null | undefined;

/** The ripgrep binary on PATH, or null; looked up once. */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | null {
  if (cached !== undefined) return cached;
  cached = null;
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'rg');
    try {
      accessSync(candidate, constants.X_OK);
      cached = candidate;
      break;
    } catch {
      // not here
    }
  }
  return cached;
}

/** For tests: forget the lookup, or pretend there is no ripgrep. */
export function setRipgrepForTests(value: string | null | undefined): void {
  cached = value;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs ripgrep with an argument list (never a shell), honouring the abort signal. */
export function runRipgrep(rg: string, args: string[], cwd: string, signal: AbortSignal): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      rg,
      args,
      { cwd, signal, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ABORT_ERR')
          return reject(new Error('aborted', { cause: error }));
        const code = error ? (typeof error.code === 'number' ? error.code : 2) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);

/** Every file under `root` (relative paths), skipping VCS folders and node_modules: the JS fallback's walk. */
export function walkFiles(root: string, signal: AbortSignal, limit = 200_000): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0 && out.length < limit) {
    if (signal.aborted) throw signal.reason;
    const rel = stack.pop() ?? '';
    let entries;
    try {
      entries = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) stack.push(child);
      } else if (e.isFile()) out.push(child);
    }
  }
  return out;
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Absolute paths, most recently modified first (ties by name): how Glob and Grep list files. */
export function newestFirst(files: readonly string[]): string[] {
  return files
    .map((f) => ({ f, t: mtimeOf(f) }))
    .sort((a, b) => b.t - a.t || a.f.localeCompare(b.f))
    .map((x) => x.f);
}

export function isRegularFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
