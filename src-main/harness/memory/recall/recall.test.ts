import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngine, text } from '../../../test-support/engine';
import { tempDir } from '../../../test-support/temp';
import { MemoryRecall } from './memory-recall';

/*
 * Recall through the real SDK and the scripted Messages API: the selector is the request to the small
 * model (matched by model id), the main turn the one to the session's model.
 */

type Step = Parameters<typeof testEngine>[0]['steps'][number];
type Recorded = Awaited<ReturnType<typeof testEngine>>['api']['requests'][number];

const NOW = new Date('2026-12-03T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const SMALL = 'claude-haiku-4-5';

function memoryDir(files: Record<string, { description: string; body: string; daysOld: number }>): string {
  const dir = tempDir('carapace-memory-');
  for (const [file, m] of Object.entries(files)) {
    const full = path.join(dir, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(
      full,
      `---\nname: ${file.replace(/\.md$/, '')}\ndescription: ${m.description}\ntype: reference\n---\n\n${m.body}\n`,
    );
    const t = (NOW.getTime() - m.daysOld * DAY - 60_000) / 1000;
    utimesSync(full, t, t);
  }
  writeFileSync(path.join(dir, 'MEMORY.md'), '- index, not a memory\n');
  return dir;
}

const seven = Object.fromEntries(
  Array.from({ length: 7 }, (_, i) => [
    `note-${i}.md`,
    { description: `Note number ${i}`, body: `BODY-${i}`, daysOld: i },
  ]),
);

function selectorSays(answer: string): Step {
  return { when: { model: SMALL }, reply: { content: [text(answer)] } };
}
const mainReply: Step = {
  when: { model: 'claude-sonnet-4-5' },
  reply: { content: [text('Done.')] },
};

async function runTurn(dir: string, steps: Step[], prompt = 'How do I deploy?') {
  const recall = new MemoryRecall({ memoryDir: dir, enabled: () => true, now: () => NOW });
  const t = await testEngine({ steps }, { recall });
  const turn = await t.run(prompt);
  const main = t.api.requests.filter((r) => r.body.model === 'claude-sonnet-4-5');
  const selector = t.api.requests.filter((r) => r.body.model === SMALL);
  return { t, turn, recall, main, selector };
}

/** The text of the last (user) message of a request: the person's words and any recalled memories. */
const lastUserText = (r: Recorded | undefined): string => {
  const content = r?.body.messages?.at(-1)?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content
        .map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : ''))
        .join('\n')
    : '';
};

describe('memory recall', () => {
  it('attaches the two files the selector names, with their ages, to the next request', async () => {
    const dir = memoryDir(seven);
    const { t, turn, main, selector } = await runTurn(dir, [
      selectorSays('{"selected_memories": ["note-0.md", "note-3.md"]}'),
      mainReply,
    ]);
    expect(turn.result.terminal.reason).toBe('completed');
    expect(selector).toHaveLength(1);
    // The selector saw the names and descriptions and the user's message, not the bodies.
    const asked = JSON.stringify(selector[0]?.body);
    expect(asked).toContain('note-5.md');
    expect(asked).toContain('Note number 5');
    expect(asked).toContain('How do I deploy?');
    expect(asked).not.toContain('BODY-5');
    expect(asked).not.toContain('MEMORY.md');

    expect(main).toHaveLength(1);
    const sent = lastUserText(main[0]);
    expect(sent).toContain('How do I deploy?');
    expect(sent).toContain('<memory file="note-0.md" saved="today">');
    expect(sent).toContain('BODY-0');
    expect(sent).toContain('<memory file="note-3.md" saved="3 days ago">');
    expect(sent).toContain('BODY-3');
    expect(sent).not.toContain('BODY-1');
    // Only the old one carries the point-in-time warning.
    expect(sent.match(/point-in-time observations/g)).toHaveLength(1);
    expect(sent.indexOf('point-in-time')).toBeGreaterThan(sent.indexOf('note-3.md'));
    // The system prompt holds none of it: the cache stays valid.
    expect(JSON.stringify(main[0]?.body.system)).not.toContain('BODY-');
    // The selector's request is the session's to pay for.
    expect(Object.keys(t.engine.cost.modelUsage())).toContain(SMALL);
  });

  it('cuts an answer of seven names to five', async () => {
    const dir = memoryDir(seven);
    const all = Object.keys(seven);
    const { main, recall } = await runTurn(dir, [
      selectorSays(JSON.stringify({ selected_memories: all })),
      mainReply,
    ]);
    const sent = lastUserText(main[0]);
    expect(sent.match(/<memory file=/g)).toHaveLength(5);
    for (const i of [0, 1, 2, 3, 4]) expect(sent).toContain(`BODY-${i}`);
    expect(sent).not.toContain('BODY-5');
    expect(sent).not.toContain('BODY-6');
    expect(recall.recalled.map((m) => m.file)).toEqual(all.slice(0, 5));
  });

  it('goes on with the turn when the selector fails', async () => {
    const dir = memoryDir(seven);
    const { turn, main, selector, recall } = await runTurn(dir, [
      {
        when: { model: SMALL },
        reply: { error: { status: 500, type: 'api_error', message: 'selector down' } },
      },
      mainReply,
    ]);
    expect(selector).toHaveLength(1);
    expect(turn.result.terminal.reason).toBe('completed');
    expect(turn.result.text).toBe('Done.');
    expect(lastUserText(main[0])).not.toContain('<memory');
    expect(recall.lastProblem).toMatch(/Memory recall skipped/);
  });

  it('goes on without memories when the selector is too slow', async () => {
    const dir = memoryDir(seven);
    const recall = new MemoryRecall({ memoryDir: dir, enabled: () => true, now: () => NOW, timeoutMs: 200 });
    const t = await testEngine(
      {
        steps: [
          {
            when: { model: SMALL },
            reply: {
              content: [text('{"selected_memories": ["note-0.md"]}')],
              hold: { afterEvents: 0, gate: 'never' },
            },
          },
          mainReply,
        ],
      },
      { recall },
    );
    const turn = await t.run('How do I deploy?');
    expect(turn.result.text).toBe('Done.');
    const main = t.api.requests.find((r) => r.body.model === 'claude-sonnet-4-5');
    expect(lastUserText(main)).not.toContain('<memory');
    expect(recall.lastProblem).toMatch(/Memory recall skipped/);
  });

  it('goes on when the selector answers garbage', async () => {
    const dir = memoryDir(seven);
    const { turn, main } = await runTurn(dir, [selectorSays('Sure! note-1 looks relevant.'), mainReply]);
    expect(turn.result.text).toBe('Done.');
    expect(lastUserText(main[0])).not.toContain('<memory');
  });

  it('reads nothing for names that were not offered', async () => {
    const home = tempDir('carapace-home-');
    mkdirSync(path.join(home, '.ssh'));
    writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY');
    const dir = path.join(home, 'projects', 'p', 'memory');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'real.md'),
      '---\nname: real\ndescription: real one\ntype: user\n---\nREAL\n',
    );
    // A link planted in the folder is not a memory file either, nor a team folder that leads out.
    symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(dir, 'key.md'));
    writeFileSync(
      path.join(home, '.ssh', 'config.md'),
      '---\nname: ssh\ndescription: SSH-CONFIG-LINE\ntype: user\n---\n',
    );
    symlinkSync(path.join(home, '.ssh'), path.join(dir, 'team'));
    const { t, main, turn } = await runTurn(dir, [
      selectorSays(
        JSON.stringify({
          selected_memories: [
            '../../.ssh/id_rsa',
            `${home}/.ssh/id_rsa`,
            'key.md',
            'nope.md',
            'team/config.md',
          ],
        }),
      ),
      mainReply,
    ]);
    expect(turn.result.text).toBe('Done.');
    expect(JSON.stringify(t.api.requests.map((r) => r.body))).not.toContain('SSH-CONFIG-LINE');
    const sent = JSON.stringify(main[0]?.body);
    expect(sent).not.toContain('PRIVATE-KEY');
    expect(sent).not.toContain('<memory');
  });

  it('makes no selector call when there are no memory files, or memory is off', async () => {
    const empty = tempDir('carapace-memory-');
    writeFileSync(path.join(empty, 'MEMORY.md'), '- only the index\n');
    const none = await runTurn(empty, [mainReply]);
    expect(none.selector).toHaveLength(0);
    expect(none.turn.result.text).toBe('Done.');

    const dir = memoryDir(seven);
    const recall = new MemoryRecall({ memoryDir: dir, enabled: () => false, now: () => NOW });
    const t = await testEngine({ steps: [mainReply] }, { recall });
    await t.run('anything');
    expect(t.api.requests.map((r) => r.body.model)).toEqual(['claude-sonnet-4-5']);
  });

  it('does not send again a memory recalled before the session was resumed', async () => {
    const dir = memoryDir(seven);
    const first = await runTurn(dir, [selectorSays('{"selected_memories": ["note-2.md"]}'), mainReply]);
    // A new engine (the app restarted) takes up the same transcript, with a fresh recall.
    const recall = new MemoryRecall({ memoryDir: dir, enabled: () => true, now: () => NOW });
    const t = await testEngine(
      { steps: [selectorSays('{"selected_memories": ["note-2.md", "note-4.md"]}'), mainReply] },
      { recall },
    );
    t.engine.resume(first.t.lines().lines);
    await t.run('again');
    const selector = t.api.requests.find((r) => r.body.model === SMALL);
    expect(JSON.stringify(selector?.body)).not.toContain('note-2.md');
    const sent = lastUserText(t.api.requests.find((r) => r.body.model === 'claude-sonnet-4-5'));
    expect(sent).toContain('BODY-4');
    expect(recall.recalled.map((m) => m.file)).toEqual(['note-4.md']);
  });

  it('does not recall a memory twice in one session', async () => {
    const dir = memoryDir(seven);
    const recall = new MemoryRecall({ memoryDir: dir, enabled: () => true, now: () => NOW });
    const t = await testEngine(
      {
        steps: [
          selectorSays('{"selected_memories": ["note-2.md"]}'),
          mainReply,
          selectorSays('{"selected_memories": ["note-4.md"]}'),
          mainReply,
        ],
      },
      { recall },
    );
    await t.run('first');
    await t.run('second');
    const secondSelector = t.api.requests.filter((r) => r.body.model === SMALL)[1];
    expect(JSON.stringify(secondSelector?.body)).not.toContain('note-2.md');
    expect(recall.recalled.map((m) => m.file)).toEqual(['note-2.md', 'note-4.md']);
  });
});
