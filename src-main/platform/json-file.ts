import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { AppError, errnoCode } from './errors';

export type JsonReadResult<T> =
  { kind: 'ok'; value: T } | { kind: 'missing' } | { kind: 'invalid'; problem: string };

/**
 * Reads a JSON file against a schema. A missing file and an invalid one are answers, not exceptions:
 * callers decide whether to fall back to defaults, and an invalid file is never overwritten silently.
 */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S): JsonReadResult<z.infer<S>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', problem: `${file} could not be read: ${(error as Error).message}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', problem: `${file} is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : '';
    return { kind: 'invalid', problem: `${file} is invalid${where}: ${first?.message ?? 'unknown problem'}` };
  }
  return { kind: 'ok', value: parsed.data };
}

/**
 * Writes JSON atomically (temp file + rename), so a crash never leaves half a file. When the write
 * fails (a full disk), the temp file is removed and the old file is left as it was.
 */
export function writeJsonFileAtomic(file: string, value: unknown, mode = 0o644): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode });
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    const full = errnoCode(error) === 'ENOSPC';
    throw new AppError('IO_ERROR', `Could not write ${file}: ${(error as Error).message}`, {
      cause: error,
      ...(full ? { retryable: true, details: ['ENOSPC'] } : {}),
    });
  }
}
