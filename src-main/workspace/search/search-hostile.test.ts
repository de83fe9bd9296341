import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchQuery } from '@shared/ipc/contract/search';
import { tempDir } from '../../test-support/temp';
import { SEARCH_INDEX_FILE } from './project-index';
import { SearchThread } from './search-thread';

/*
 * The search worker against transcripts nobody should have to index: a line past the reader's cap,
 * a huge line under it, corrupt JSON, invalid UTF-8, NUL bytes, items of the wrong shape, a corrupt
 * saved index. The worker stays up (the same thread answers every query) and finds what is whole.
 */

const AT = '2026-06-02T10:00:00.000Z';
const line = (o: object) => `${JSON.stringify(o)}\n`;
const session = (sessionId: string, agent?: object) =>
  line({
    type: 'session',
    version: 1,
    sessionId,
    projectPath: '/work/h',
    createdAt: AT,
    model: 'm',
    ...(agent ? { agent } : {}),
  });
const userText = (id: string, text: string) =>
  line({
    type: 'item',
    item: {
      kind: 'message',
      id,
      role: 'user',
      origin: 'user',
      content: [{ type: 'text', text }],
      createdAt: AT,
      status: 'complete',
    },
  });

const threads: SearchThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.dispose()));
});

describe('the search worker against hostile transcripts', () => {
  it('skips a 50 MB line and corrupt lines, indexes what follows, and never dies', async () => {
    const projectsDir = path.join(tempDir('carapace-search-hostile-'), 'projects');
    const dir = path.join(projectsDir, 'proj-0');
    mkdirSync(path.join(dir, 's1', 'subagents'), { recursive: true });
    const file = path.join(dir, 's1.jsonl');
    writeFileSync(file, session('s1'));
    // Past the 32 MB line cap: a tool result of 50 MB naming a word nothing else has.
    appendFileSync(file, userText('huge', `zanzibarhuge ${'x'.repeat(50 * 1024 * 1024)}`));
    // Under the cap but large: its text is clipped, its first words still found.
    appendFileSync(file, userText('big', `quetzalbig ${'y '.repeat(4 * 1024 * 1024)}`));
    appendFileSync(file, '{"type":"item","item":\n');
    appendFileSync(file, 'not json at all\n');
    appendFileSync(file, Buffer.from([0xff, 0xfe, 0x00, 0x0a]));
    appendFileSync(file, line({ type: 'item', item: null }));
    appendFileSync(
      file,
      line({ type: 'item', item: { kind: 'message', id: 7, role: 'user', content: 'text' } }),
    );
    appendFileSync(
      file,
      line({
        type: 'item',
        item: {
          kind: 'message',
          id: 'bad-date',
          role: 'user',
          origin: 'user',
          content: [{ type: 'text', text: 'marmalade' }],
          createdAt: 'yesterday',
          status: 'complete',
        },
      }),
    );
    appendFileSync(file, line({ type: 'session', agent: { agentId: { $gt: '' }, parentId: 42 } }));
    appendFileSync(file, '[1,2,3]\nnull\n"str"\n42\n\n\n');
    appendFileSync(file, userText('after', 'periwinklefound after the junk\u0000 with a NUL'));
    // A sub-agent's transcript of nothing but junk, and one whose header is hostile.
    writeFileSync(path.join(dir, 's1', 'subagents', 'agent-junk.jsonl'), `${'{'.repeat(100_000)}\n`);
    // A teammate whose name carries a terminal escape: found, its name carried as text.
    writeFileSync(
      path.join(dir, 's1', 'subagents', 'agent-odd.jsonl'),
      session('s1', {
        agentId: 'agent-odd',
        parentId: null,
        agentType: 'Explore',
        name: '\u001b]52;c;eA==\u0007odd',
        toolUseId: null,
      }) + userText('sub', 'lanternsub from a sub-agent'),
    );
    // A header naming another agent than its file (a path, even): not shown as anyone's.
    writeFileSync(
      path.join(dir, 's1', 'subagents', 'agent-liar.jsonl'),
      session('s1', {
        agentId: '../../etc',
        parentId: '__proto__',
        agentType: 'Explore',
        name: 'liar',
        toolUseId: null,
      }) + userText('liar', 'liarword from a lying header'),
    );

    const thread = new SearchThread({ projectsDir, saveIntervalMs: 0 });
    threads.push(thread);
    const q = async (text: string) =>
      (
        await thread.query(SearchQuery.parse({ text, scope: { kind: 'project', projectId: 'proj-0' } }))
      ).hits.map((h) => h.itemId);
    expect(await q('periwinklefound')).toEqual(['after']);
    const first = thread.threadId;
    expect(await q('quetzalbig')).toEqual(['big']);
    expect(await q('zanzibarhuge')).toEqual([]);
    expect(await q('marmalade')).toEqual([]);
    expect(await q('lanternsub')).toEqual(['sub']);
    expect(await q('liarword')).toEqual([]);
    expect(thread.threadId).toBe(first);

    // A corrupt saved index (a later open reads it first): rebuilt from the transcripts, same answers.
    await thread.dispose();
    writeFileSync(
      path.join(dir, SEARCH_INDEX_FILE),
      '{"version":1,"files":{"s1.jsonl":{"offset":-5}},"docs":',
    );
    const again = new SearchThread({ projectsDir, saveIntervalMs: 0 });
    threads.push(again);
    const hits = await again.query(
      SearchQuery.parse({ text: 'periwinklefound', scope: { kind: 'project', projectId: 'proj-0' } }),
    );
    expect(hits.hits.map((h) => h.itemId)).toEqual(['after']);
  }, 120_000);
});
