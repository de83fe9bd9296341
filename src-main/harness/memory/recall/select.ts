import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { UsageReport } from '../../cost/tracker';
import type { ModelClient } from '../../model/model-client';
import { sideRequest } from '../../model/side-request';
import { validateMemoryPath } from '../dir/validate-memory-path';
import { freshnessWarning, memoryAgeDays, memoryAgeLabel } from './memory-age';
import { parseSelection } from './parse-selection';
import { scanMemories } from './scan-memories';
import { SELECTOR_SYSTEM_PROMPT, selectorUserMessage } from './selector-prompt';

/** A memory picked for this turn, with its contents and age. */
export interface RecalledMemory {
  /** Path relative to the memory directory (`team/x.md` for a team memory). */
  file: string;
  /** The real path it was read from (for "Loaded in this session"). */
  path: string;
  name: string;
  content: string;
  mtimeMs: number;
  ageDays: number;
  /** `today`, `yesterday`, `N days ago`. */
  age: string;
  /** Past one day: the reminder to verify it against the code. */
  warning: string | null;
}

export interface RecallDeps {
  memoryDir: string;
  /** `autoMemoryEnabled`: off means no selector call at all. */
  enabled: boolean;
  /** The user's message for this turn. */
  query: string;
  /** The client of the small model and its id. */
  client: ModelClient;
  model: string;
  now: () => Date;
  signal: AbortSignal;
  /** Names of the tools the agent has (the selector skips their plain documentation). */
  toolsInUse?: readonly string[];
  /** Files already recalled earlier in the session: they are in the context already. */
  exclude?: ReadonlySet<string>;
  /** Told why recall gave up (API error, unreadable file); the turn goes on either way. */
  onProblem?: (message: string) => void;
  /** How long the selector may take before the turn goes on without it. */
  timeoutMs?: number;
  /** Told what the selector request cost (it is the session's to pay). */
  onUsage?: (report: UsageReport) => void;
}

const SELECTOR_MAX_TOKENS = 256;
/** The small model answers in a second or two; past this the turn goes on without memories. */
const DEFAULT_TIMEOUT_MS = 10_000;
/** A memory is a short note; a huge file is cut so one memory cannot fill the context. */
export const MAX_MEMORY_CHARS = 20_000;

/**
 * Picks the memories that help with this turn (at most 5, none when unsure) through one call to the
 * small model, and reads them. Never throws and never blocks the turn for long: no memories, memory
 * off, a failing or slow selector, or an answer naming files that were not offered all give fewer
 * (or no) memories. Only names from the listing are read, each through validateMemoryPath.
 */
export async function recallMemories(deps: RecallDeps): Promise<RecalledMemory[]> {
  if (!deps.enabled || deps.query.trim() === '') return [];
  try {
    const headers = (await scanMemories(deps.memoryDir)).filter((h) => !deps.exclude?.has(h.file));
    if (headers.length === 0) return [];
    const answer = await askSelector(deps, selectorUserMessage(deps.query, headers, deps.toolsInUse ?? []));
    const picked = parseSelection(answer, new Set(headers.map((h) => h.file)));
    const byFile = new Map(headers.map((h) => [h.file, h]));
    const out: RecalledMemory[] = [];
    for (const file of picked) {
      const memory = await readRecalled(deps, file, byFile.get(file)?.name ?? file);
      if (memory) out.push(memory);
    }
    return out;
  } catch (error) {
    deps.onProblem?.(`Memory recall skipped: ${(error as Error).message}`);
    return [];
  }
}

async function askSelector(deps: RecallDeps, userText: string): Promise<string> {
  const signal = AbortSignal.any([deps.signal, AbortSignal.timeout(deps.timeoutMs ?? DEFAULT_TIMEOUT_MS)]);
  const message = await sideRequest(
    deps.client,
    {
      model: deps.model,
      maxTokens: SELECTOR_MAX_TOKENS,
      system: SELECTOR_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: userText }],
    },
    signal,
    deps.onUsage,
    'memory-selector',
  );
  return message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}

async function readRecalled(deps: RecallDeps, file: string, name: string): Promise<RecalledMemory | null> {
  // The name came from our own listing, but it is checked again: the folder may have changed since
  // (a file swapped for a link pointing out of it).
  const checked = validateMemoryPath(path.join(deps.memoryDir, file), deps.memoryDir);
  if (!checked.ok) {
    deps.onProblem?.(`Memory ${file} was not read: ${checked.message}`);
    return null;
  }
  try {
    const [info, text] = await Promise.all([stat(checked.path), readFile(checked.path, 'utf8')]);
    const ageDays = memoryAgeDays(info.mtimeMs, deps.now());
    const content =
      text.length > MAX_MEMORY_CHARS
        ? `${text.slice(0, MAX_MEMORY_CHARS)}\n[… cut at ${MAX_MEMORY_CHARS} characters]`
        : text;
    return {
      file,
      path: checked.path,
      name,
      content,
      mtimeMs: info.mtimeMs,
      ageDays,
      age: memoryAgeLabel(ageDays),
      warning: freshnessWarning(ageDays),
    };
  } catch (error) {
    deps.onProblem?.(`Memory ${file} was not read: ${(error as Error).message}`);
    return null;
  }
}
