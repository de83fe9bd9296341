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
const WORDS = (
  'the build fails because the parser reads a config file before the cache is warm so every request ' +
  'retries twice and the lighthouse report shows a slow first paint while the periwinkle theme loads ' +
  'fonts we refactor the loader split the module add a test for the edge case and update the docs'
).split(' ');

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
    const w = WORDS[Math.floor(rand() * WORDS.length)] ?? 'the';
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
