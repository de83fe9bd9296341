import { appendFileSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SearchQuery } from '@shared/ipc/contract/search';
import { tempDir } from '../../test-support/temp';
import { ProjectSearchIndex, SEARCH_INDEX_FILE, SEARCH_INDEX_VERSION } from './project-index';
import { SearchService } from './search-service';

/**
 * Sub-agents' and teammates' transcripts in the search index: laid out as the runtime writes them
 * (`<session>.jsonl`, and `<session>/subagents/agent-<id>.jsonl` with an `agent` header).
 */

const AT = '2026-06-02T10:00:00.000Z';
const line = (o: object) => `${JSON.stringify(o)}\n`;
const sessionLine = (sessionId: string, agent?: object) =>
  line({
    type: 'session',
    version: 1,
    sessionId,
    projectPath: '/work/alpha',
    createdAt: AT,
    model: 'claude-sonnet-4-5',
    ...(agent ? { agent } : {}),
  });
const item = (o: object) => line({ type: 'item', item: { createdAt: AT, status: 'complete', ...o } });
const userText = (id: string, text: string) =>
  item({ kind: 'message', id, role: 'user', origin: 'user', content: [{ type: 'text', text }] });
const assistantText = (id: string, text: string) =>
  item({ kind: 'message', id, role: 'assistant', content: [{ type: 'text', text }] });
const agentCall = (id: string, callId: string, description: string) =>
  item({
    kind: 'message',
    id,
    role: 'assistant',
    content: [
      {
        type: 'tool_use',
        id: callId,
        name: 'Agent',
        input: { description, prompt: 'look around', subagent_type: 'Explore' },
      },
    ],
  });
const cut = (fromItemId: string) => line({ type: 'cut', fromItemId, at: AT });

function setup() {
  const home = tempDir('carapace-search-agents-');
  const projectsDir = path.join(home, 'projects');
  const dir = path.join(projectsDir, 'proj-0');
  mkdirSync(path.join(dir, 's1', 'subagents'), { recursive: true });
  const service = new SearchService({ projectsDir, saveIntervalMs: 0 });
  const q = (text: string) =>
    service.query(SearchQuery.parse({ text, scope: { kind: 'project', projectId: 'proj-0' } }));
  const agentFile = (agentId: string) => path.join(dir, 's1', 'subagents', `${agentId}.jsonl`);
  const header = (agentId: string, parentId: string | null, toolUseId: string | null, name: string) =>
    sessionLine('s1', { agentId, parentId, agentType: 'Explore', name, toolUseId });
  return { home, dir, service, q, agentFile, header };
}

describe('sub-agent transcripts in the search index', () => {
  it('finds a phrase written only by a sub-agent, in its session, under the Agent call, the agent named', async () => {
    const { dir, q, agentFile, header } = setup();
    writeFileSync(
      path.join(dir, 's1.jsonl'),
      sessionLine('s1') +
        line({ type: 'title', title: 'Parent session', at: AT }) +
        userText('u1', 'please explore the parser') +
        agentCall('a1', 'call-1', 'explore'),
    );
    writeFileSync(
      agentFile('agent-aaa'),
      header('agent-aaa', 's1', 'call-1', 'explore') +
        userText('su1', 'look around') +
        assistantText('sa1', 'the quokka tokenizer lives in lexer.ts'),
    );
    // A sub-agent the first one started: its call is in its parent's transcript.
    appendFileSync(agentFile('agent-aaa'), agentCall('sa2', 'call-2', 'deeper'));
    writeFileSync(
      agentFile('agent-bbb'),
      header('agent-bbb', 'agent-aaa', 'call-2', 'deeper') + assistantText('sb1', 'nested wallaby finding'),
    );
    // A teammate: started by its team, not by a call.
    writeFileSync(
      agentFile('agent-ccc'),
      header('agent-ccc', 's1', null, 'reviewer') + assistantText('sc1', 'teammate numbat review'),
    );

    const [hit] = (await q('quokka tokenizer')).hits;
    expect(hit).toMatchObject({
      sessionId: 's1',
      sessionTitle: 'Parent session',
      projectName: 'alpha',
      // Where it shows in the session: the Agent call's card.
      itemId: 'a1',
      toolUseId: 'call-1',
      kind: 'assistant',
      agent: { agentId: 'agent-aaa', name: 'explore', agentType: 'Explore', itemId: 'sa1', call: true },
    });
    const [nested] = (await q('wallaby')).hits;
    expect(nested).toMatchObject({
      sessionId: 's1',
      itemId: 'a1',
      toolUseId: 'call-1',
      agent: {
        agentId: 'agent-bbb',
        name: 'deeper',
        itemId: 'sb1',
        call: true,
        path: ['agent-aaa', 'agent-bbb'],
      },
    });
    const [mate] = (await q('numbat')).hits;
    expect(mate).toMatchObject({
      sessionId: 's1',
      toolUseId: null,
      agent: { agentId: 'agent-ccc', name: 'reviewer', itemId: 'sc1', call: false, path: ['agent-ccc'] },
    });
    // The session's own pieces name no agent.
    expect((await q('parser')).hits.map((h) => [h.itemId, h.agent])).toEqual([['u1', null]]);
  });

  it('forgets a sub-agent’s work when a rewind of its session (or inside it) took it out', async () => {
    const { dir, q, agentFile, header } = setup();
    const parent = path.join(dir, 's1.jsonl');
    writeFileSync(
      parent,
      sessionLine('s1') + userText('u1', 'first ask') + agentCall('a1', 'call-1', 'explore'),
    );
    writeFileSync(
      agentFile('agent-aaa'),
      header('agent-aaa', 's1', 'call-1', 'explore') +
        assistantText('sa1', 'kept echidna notes') +
        assistantText('sa2', 'rewound platypus notes') +
        cut('sa2'),
    );
    writeFileSync(
      agentFile('agent-bbb'),
      header('agent-bbb', 'agent-aaa', 'call-x', 'deeper') + assistantText('sb1', 'orphan dingo notes'),
    );
    expect((await q('echidna')).hits.map((h) => h.agent?.itemId)).toEqual(['sa1']);
    // A cut inside the sub-agent's transcript is honoured.
    expect((await q('platypus')).hits).toEqual([]);
    // Its call is not in its parent's transcript: not shown.
    expect((await q('dingo')).hits).toEqual([]);

    // The agent's transcript grows: only the new bytes are read.
    const before = statSync(agentFile('agent-aaa')).size;
    const added = assistantText('sa3', 'later bilby notes');
    appendFileSync(agentFile('agent-aaa'), added);
    const index = new ProjectSearchIndex(dir, { saveIntervalMs: 0 });
    expect(index.loaded).toBe('cache');
    const read = index.bytesRead;
    index.refresh();
    expect(index.bytesRead - read).toBe(Buffer.byteLength(added));
    expect(before).toBeGreaterThan(0);
    expect((await q('bilby')).hits.map((h) => h.agent?.itemId)).toEqual(['sa3']);

    // The person rewinds the session to before the Agent call: the sub-agent's work goes with it.
    appendFileSync(parent, cut('a1'));
    expect((await q('echidna')).hits).toEqual([]);
    expect((await q('bilby')).hits).toEqual([]);
    expect((await q('first ask')).total).toBe(1);
    // Also after the index is saved and read back.
    expect(new ProjectSearchIndex(dir).query('echidna', () => true)).toEqual([]);
  });

  it('rebuilds an index of the previous version (which lacks the sub-agents)', async () => {
    const { dir, q, agentFile, header } = setup();
    writeFileSync(path.join(dir, 's1.jsonl'), sessionLine('s1') + agentCall('a1', 'call-1', 'explore'));
    writeFileSync(
      agentFile('agent-aaa'),
      header('agent-aaa', 's1', 'call-1', 'explore') + assistantText('sa1', 'kookaburra'),
    );
    expect((await q('kookaburra')).total).toBe(1);
    const file = path.join(dir, SEARCH_INDEX_FILE);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { version: number };
    expect(saved.version).toBe(SEARCH_INDEX_VERSION);
    writeFileSync(file, JSON.stringify({ ...saved, version: SEARCH_INDEX_VERSION - 1 }));
    expect(new ProjectSearchIndex(dir).loaded).toBe('rebuilt');
    expect((await ProjectSearchIndex.open(dir)).loaded).toBe('rebuilt');
    // A saved file name that is neither a session's transcript nor one in its `subagents/`: rebuilt.
    const good = saved as unknown as { files: Record<string, unknown>; docs: { files: string[] } };
    const agentName = 's1/subagents/agent-aaa.jsonl';
    expect(Object.keys(good.files)).toContain(agentName);
    for (const bad of ['s1/../agent-aaa.jsonl', '../subagents/agent-aaa.jsonl', 's1/other/agent-aaa.jsonl']) {
      const files = Object.fromEntries(
        Object.entries(good.files).map(([k, v]) => [k === agentName ? bad : k, v]),
      );
      const docs = { ...good.docs, files: good.docs.files.map((f) => (f === agentName ? bad : f)) };
      writeFileSync(file, JSON.stringify({ ...saved, files, docs }));
      expect(new ProjectSearchIndex(dir).loaded).toBe('rebuilt');
    }
    writeFileSync(file, JSON.stringify(saved));
    expect(new ProjectSearchIndex(dir).loaded).toBe('cache');
  });

  it('never follows a linked subagents folder or agent transcript, and skips files that are not agents', async () => {
    const { home, dir, q, agentFile, header } = setup();
    writeFileSync(path.join(dir, 's1.jsonl'), sessionLine('s1') + agentCall('a1', 'call-1', 'explore'));
    const outside = path.join(home, 'outside');
    mkdirSync(outside);
    writeFileSync(
      path.join(outside, 'agent-out.jsonl'),
      header('agent-out', 's1', 'call-1', 'explore') + assistantText('x1', 'secret gecko'),
    );
    symlinkSync(path.join(outside, 'agent-out.jsonl'), agentFile('agent-out'));
    mkdirSync(path.join(dir, 's2'));
    writeFileSync(path.join(dir, 's2.jsonl'), sessionLine('s2') + agentCall('a2', 'call-1', 'explore'));
    symlinkSync(outside, path.join(dir, 's2', 'subagents'));
    // A hook's verifier, a file of another name, and a header naming another agent.
    writeFileSync(
      agentFile('hook-agent-1'),
      header('hook-agent-1', 's1', 'call-1', 'hook') + assistantText('h1', 'gecko hook'),
    );
    writeFileSync(
      agentFile('notes'),
      header('notes', 's1', 'call-1', 'x') + assistantText('n1', 'gecko notes'),
    );
    writeFileSync(
      agentFile('agent-liar'),
      header('agent-other', 's1', 'call-1', 'explore') + assistantText('l1', 'gecko liar'),
    );
    expect((await q('gecko')).hits).toEqual([]);
    const index = new ProjectSearchIndex(dir);
    // Only the liar was read (the header is checked when shown, the file is the runtime's naming).
    expect(index.documentCount).toBe(3);
  });
});
