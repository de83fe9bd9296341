import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionPreview } from '@shared/domain/permissions';
import { runTool } from '../../test-support/run-tool';
import { toolContext } from '../../test-support/tool-context';
import { builtinTools } from '../tools/registry';
import type { AnyTool, ToolUseContext } from '../tools/tool';
import { PREVIEW_MAX_LINE_CHARS, PREVIEW_MAX_LINES } from './edit-preview';
import { PermissionEngine } from './engine';
import { EngineGate } from './engine-gate';
import type { PermissionRequest } from './handlers';

const tool = (name: string) => builtinTools().find((t) => t.name === name) as AnyTool;

/**
 * The real gate over the real engine in default mode: Edit and Write inside the project ask. The
 * person is played by a handler that records the request and allows it once.
 */
function setup(files: Record<string, string> = {}) {
  const ctx: ToolUseContext = toolContext({ permissionMode: 'default' });
  for (const [name, content] of Object.entries(files))
    writeFileSync(path.join(ctx.projectRoot, name), content);
  const requests: PermissionRequest[] = [];
  const gate = new EngineGate({
    engine: new PermissionEngine(() => ({
      rules: [],
      mode: 'default',
      home: '/home/tester',
      sandbox: { active: false, autoAllowBashIfSandboxed: false, excludedCommands: [] },
    })),
    sessionId: 's1',
    handler: {
      resolve: (request) => {
        requests.push(request);
        return Promise.resolve({ behavior: 'allow', by: 'user' });
      },
    },
  });
  /** Asks the gate (recording the preview shown), then runs the tool as the executor would. */
  const call = async (name: string, input: Record<string, unknown>) => {
    const decision = await gate.check(tool(name), input, ctx);
    expect(decision.behavior).toBe('allow');
    const preview = requests.at(-1)?.preview;
    const output = await runTool(tool(name), input, ctx);
    return { preview, output };
  };
  const at = (name: string) => path.join(ctx.projectRoot, name);
  const read = (name: string) => runTool(tool('Read'), { file_path: at(name) }, ctx);
  return { ctx, gate, requests, call, at, read };
}

/** The new file as the preview shows it, where the preview covers the whole (small) file. */
function afterFrom(preview: PermissionPreview | undefined): string {
  expect(preview?.lines.some((l) => l.op === '@')).toBe(false);
  return (preview?.lines ?? [])
    .filter((l) => l.op !== '-')
    .map((l) => l.text)
    .join('\n');
}

describe('the preview on an Edit or Write permission request', () => {
  it('Edit with replace_all: the preview is exactly what the tool then writes', async () => {
    const s = setup({ 'a.ts': 'const a = 1;\nlet x = a;\nlet y = a + a;\n' });
    await s.read('a.ts');
    const { preview, output } = await s.call('Edit', {
      file_path: s.at('a.ts'),
      old_string: 'a',
      new_string: 'b$&',
      replace_all: true,
    });
    expect(output.isError).toBeFalsy();
    expect(preview).toMatchObject({ kind: 'diff', path: s.at('a.ts'), created: false, truncated: false });
    expect(preview?.lines).toContainEqual({ op: '-', text: 'let y = a + a;' });
    expect(preview?.lines).toContainEqual({ op: '+', text: 'let y = b$& + b$&;' });
    expect(afterFrom(preview)).toBe(readFileSync(s.at('a.ts'), 'utf8'));
  });

  it('Edit of one occurrence shows that change in the context of the file', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const s = setup({ 'long.txt': lines.join('\n') });
    await s.read('long.txt');
    const { preview } = await s.call('Edit', {
      file_path: s.at('long.txt'),
      old_string: 'line 15\n',
      new_string: 'line fifteen\n',
    });
    expect(preview?.lines).toEqual([
      { op: '@', text: '@@ line 12 @@' },
      { op: ' ', text: 'line 12' },
      { op: ' ', text: 'line 13' },
      { op: ' ', text: 'line 14' },
      { op: '-', text: 'line 15' },
      { op: '+', text: 'line fifteen' },
      { op: ' ', text: 'line 16' },
      { op: ' ', text: 'line 17' },
      { op: ' ', text: 'line 18' },
    ]);
    expect(readFileSync(s.at('long.txt'), 'utf8')).toContain('line fifteen\nline 16');
  });

  it('an Edit that would fail says so instead of showing a change', async () => {
    const s = setup({ 'a.ts': 'x\nx\n' });
    await s.read('a.ts');
    const { preview, output } = await s.call('Edit', {
      file_path: s.at('a.ts'),
      old_string: 'x',
      new_string: 'y',
    });
    expect(output.isError).toBe(true);
    expect(preview).toMatchObject({
      lines: [],
      note: expect.stringContaining('This edit will fail: Found 2 matches'),
    });
  });

  it('Write of a new file shows its whole content; over an existing file, the diff', async () => {
    const s = setup({ 'old.txt': 'keep\nchange me\n' });
    const created = await s.call('Write', { file_path: s.at('new/file.txt'), content: 'hello\nworld\n' });
    expect(created.preview).toMatchObject({ created: true, added: 3, removed: 0 });
    expect(created.preview?.lines.map((l) => `${l.op}${l.text}`)).toEqual(['+hello', '+world', '+']);
    expect(afterFrom(created.preview)).toBe(readFileSync(s.at('new/file.txt'), 'utf8'));

    await s.read('old.txt');
    const over = await s.call('Write', { file_path: s.at('old.txt'), content: 'keep\nchanged\n' });
    expect(over.preview?.lines).toEqual([
      { op: ' ', text: 'keep' },
      { op: '-', text: 'change me' },
      { op: '+', text: 'changed' },
      { op: ' ', text: '' },
    ]);
  });

  it('is bounded, and says when it is cut', async () => {
    const s = setup();
    const content = ['z'.repeat(100_000), ...Array.from({ length: 5000 }, (_, i) => `row ${i}`)].join('\n');
    const { preview } = await s.call('Write', { file_path: s.at('big.txt'), content });
    expect(preview?.truncated).toBe(true);
    expect(preview?.lines).toHaveLength(PREVIEW_MAX_LINES + 1);
    expect(preview?.lines[0]?.text).toMatch(
      new RegExp(`^z{${PREVIEW_MAX_LINE_CHARS}}… \\(99760 more characters\\)$`),
    );
    expect(preview?.lines.at(-1)).toEqual({
      op: '@',
      text: `@@ preview cut after ${PREVIEW_MAX_LINES} lines: 5001 added and 0 removed in all @@`,
    });
    expect(JSON.stringify(preview).length).toBeLessThan(20_000);
    // Control: a small write is whole and not marked cut.
    const small = await s.call('Write', { file_path: s.at('small.txt'), content: 'a\nb' });
    expect(small.preview).toMatchObject({ truncated: false, added: 2 });
  });

  it('spells out characters that would make the diff read differently than what is written', async () => {
    const s = setup();
    const { preview } = await s.call('Write', {
      file_path: s.at('trojan.js'),
      content: 'if (isAdmin) {\u202E } \u2066// check later\u2069\nok\u001b[2K\n',
    });
    expect(preview?.lines[0]?.text).toBe('if (isAdmin) {⟨U+202E⟩ } ⟨U+2066⟩// check later⟨U+2069⟩');
    expect(preview?.lines[1]?.text).toBe('ok⟨U+001B⟩[2K');
  });

  it('does not hang on a FIFO, and Bash requests carry no preview', async () => {
    const s = setup();
    execFileSync('mkfifo', [s.at('pipe')]);
    const decision = s.gate.check(
      tool('Edit'),
      { file_path: s.at('pipe'), old_string: 'a', new_string: 'b' },
      s.ctx,
    );
    await expect(decision).resolves.toMatchObject({ behavior: 'allow' });
    expect(s.requests.at(-1)?.preview?.note).toMatch(/not a regular file/);
    await s.gate.check(tool('Bash'), { command: 'touch x' }, s.ctx);
    expect(s.requests.at(-1)?.summary).toBe('touch x');
    expect(s.requests.at(-1)?.preview).toBeUndefined();
  });
});
