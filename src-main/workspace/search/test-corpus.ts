import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptItem } from '@shared/domain/messages';

/**
 * Transcripts written as Carapace writes them, for the search tests and benchmark: person and model
 * text, tool calls with their results (some failed), several models, spread over days. One message
 * holds a known phrase whose words also occur apart elsewhere, so only ranking finds it first.
 */

export const KNOWN_PHRASE = 'periwinkle lighthouse refactor';
const MODELS = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'];
/** Common words first (the most frequent ranks), then the known phrase's words at middling ranks. */
const COMMON = (
  'the a to and of is in it for we that this on with be as file test it’s not are but at run can so if ' +
  'build fails because parser reads config before cache warm every request retries twice report shows ' +
  'slow first paint while theme loads fonts split module add edge case update docs error function type'
).split(' ');
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tu',
  'sa',
  'vor',
  'el',
  'qui',
  'dan',
  'po',
  'ix',
  'ber',
  'no',
  'fa',
  'gul',
];
const VOCABULARY_SIZE = 12_000;

/**
 * A vocabulary in the shape of real text: word frequencies follow Zipf's law (the r-th most common
 * word about 1/r as often as the first) over common words and thousands of rarer made-up ones, so a
 * query matches what a real one would: a handful of pieces for rare words, many for common ones.
 */
function vocabulary(): { words: string[]; cdf: Float64Array } {
  const words = [...COMMON];
  for (let i = 0; words.length < VOCABULARY_SIZE; i++) {
    let w = '';
    for (let n = i; w.length < 4 || n > 0; n = Math.floor(n / SYLLABLES.length))
      w += SYLLABLES[n % SYLLABLES.length] ?? '';
    words.push(w);
  }
  // The phrase's words occur apart now and then, as real words do.
  words.splice(200, 0, 'periwinkle');
  words.splice(500, 0, 'lighthouse');
  words.splice(1000, 0, 'refactor');
  const cdf = new Float64Array(words.length);
  let sum = 0;
  for (let r = 0; r < words.length; r++) cdf[r] = sum += 1 / (r + 1);
  for (let r = 0; r < words.length; r++) cdf[r] = (cdf[r] ?? 0) / sum;
  return { words, cdf };
}

const VOCAB = vocabulary();

function zipfWord(rand: () => number): string {
  const x = rand();
  let lo = 0;
  let hi = VOCAB.cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((VOCAB.cdf[mid] ?? 1) < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB.words[lo] ?? 'the';
}

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = zipfWord(rand);
    // The known phrase's words occur everywhere, but never in its order: only one message has it.
    out.push(w === 'lighthouse' && out.at(-1) === 'periwinkle' ? 'tower' : w);
  }
  return `${out.join(' ')}.`;
}

export interface CorpusSession {
  id: string;
  file: string;
  model: string;
  items: TranscriptItem[];
}

export interface Corpus {
  sessions: CorpusSession[];
  /** Where KNOWN_PHRASE was written (null when `knownIn` is -1). */
  known: { sessionId: string; itemId: string } | null;
}

/**
 * Writes `sessions` transcripts (the known phrase in session `knownIn`, -1 for none) of about `messages` items each into a project folder. Session 0 is
 * dated `start`, each next one a few hours later.
 */
export function writeCorpus(
  dir: string,
  options: { sessions: number; messages: number; projectPath?: string; knownIn?: number; seed?: number },
  start = Date.parse('2026-06-01T09:00:00Z'),
): Corpus {
  mkdirSync(dir, { recursive: true });
  const rand = prng(options.seed ?? 7);
  const knownIn = options.knownIn ?? Math.floor(options.sessions / 2);
  const out: CorpusSession[] = [];
  let known: Corpus['known'] | null = null;
  for (let s = 0; s < options.sessions; s++) {
    const id = randomUUID();
    const model = MODELS[s % MODELS.length] ?? 'claude-sonnet-4-5';
    const t0 = start + s * 3 * 3_600_000;
    const items: TranscriptItem[] = [];
    const at = (i: number) => new Date(t0 + i * 20_000).toISOString();
    for (let i = 0; items.length < options.messages; i++) {
      const phase = i % 4;
      if (phase === 0) {
        items.push({
          kind: 'message',
          id: randomUUID(),
          role: 'user',
          origin: 'user',
          content: [{ type: 'text', text: `Step ${i}: ${sentence(rand, 12)}` }],
          createdAt: at(items.length),
          status: 'complete',
        });
      } else if (phase === 1) {
        const toolId = `toolu_${s}_${i}`;
        items.push({
          kind: 'message',
          id: randomUUID(),
          role: 'assistant',
          model,
          content: [
            { type: 'text', text: sentence(rand, 30) },
            { type: 'tool_use', id: toolId, name: 'Bash', input: { command: `npm test -- part${i}` } },
          ],
          createdAt: at(items.length),
          status: 'complete',
          stopReason: 'tool_use',
        });
        const failed = i % 12 === 1;
        items.push({
          kind: 'message',
          id: randomUUID(),
          role: 'user',
          origin: 'tool_results',
          content: [
            {
              type: 'tool_result',
              tool_use_id: toolId,
              content: failed ? `Error: suite part${i} failed\n${sentence(rand, 20)}` : sentence(rand, 40),
              ...(failed ? { is_error: true } : {}),
            },
          ],
          createdAt: at(items.length),
          status: 'complete',
        });
      } else {
        items.push({
          kind: 'message',
          id: randomUUID(),
          role: 'assistant',
          model,
          content: [{ type: 'text', text: `${sentence(rand, 50)}\n\n${sentence(rand, 40)}` }],
          createdAt: at(items.length),
          status: 'complete',
          stopReason: 'end_turn',
        });
      }
    }
    if (s === knownIn) {
      const target = items[Math.floor(items.length / 2)];
      if (target?.kind === 'message') {
        target.content = [{ type: 'text', text: `Plan: the ${KNOWN_PHRASE} lands after the cache work.` }];
        known = { sessionId: id, itemId: target.id };
      }
    }
    const file = path.join(dir, `${id}.jsonl`);
    const createdAt = at(0);
    const lines = [
      {
        type: 'session',
        version: 1,
        sessionId: id,
        projectPath: options.projectPath ?? '/corpus/project',
        createdAt,
        model,
      },
      { type: 'title', title: `Session ${s}`, at: createdAt },
      ...items.map((item) => ({ type: 'item', item })),
    ];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    out.push({ id, file, model, items });
  }
  if (!known && knownIn >= 0) throw new Error('The corpus has no session to hold the known phrase.');
  return { sessions: out, known };
}
