import { describe, expect, it } from 'vitest';
import { expandCommand, parseInvocation, splitArguments } from './expand';
import { resolveSlashPrompt } from './resolve';
import { commandTurnModel } from './turn-model';
import type { CustomCommand } from './types';

const command = (body: string, over: Partial<CustomCommand> = {}): CustomCommand => ({
  name: 'fix-issue',
  scope: 'project',
  namespace: null,
  file: '/p/.claude/commands/fix-issue.md',
  description: '',
  argumentHint: null,
  allowedTools: [],
  model: null,
  body,
  ...over,
});

describe('parseInvocation', () => {
  it('reads the name and the text after it', () => {
    expect(parseInvocation('/fix-issue 42 high')).toEqual({ name: 'fix-issue', args: '42 high' });
    expect(parseInvocation('  /frontend:component  Button\nmore ')).toEqual({
      name: 'frontend:component',
      args: 'Button\nmore',
    });
    expect(parseInvocation('/cost')).toEqual({ name: 'cost', args: '' });
  });
  it('a path or plain text is not a command', () => {
    expect(parseInvocation('/usr/bin/env is odd')).toBeNull();
    expect(parseInvocation('fix /this')).toBeNull();
    expect(parseInvocation('/')).toBeNull();
    expect(parseInvocation('/ spaced')).toBeNull();
  });
});

describe('expandCommand', () => {
  it('puts $ARGUMENTS, $1… and $ARGUMENTS[n] in', () => {
    expect(expandCommand(command('Fix issue #$ARGUMENTS now.'), '42')).toBe('Fix issue #42 now.');
    expect(expandCommand(command('Review PR $1 with priority $2; all: $ARGUMENTS'), '456 high')).toBe(
      'Review PR 456 with priority high; all: 456 high',
    );
    expect(expandCommand(command('first=$ARGUMENTS[0] second=$ARGUMENTS[1]'), '"a b" c')).toBe(
      'first=a b second=c',
    );
    // Missing positional arguments become empty, not the placeholder text.
    expect(expandCommand(command('[$1][$3]'), 'x')).toBe('[x][]');
  });
  it('arguments with shell-ish or placeholder text stay plain text (one pass)', () => {
    const hostile = '$(rm -rf ~) `id` !`cat ~/.ssh/id_rsa` $1 $ARGUMENTS';
    expect(expandCommand(command('Arg: $ARGUMENTS'), hostile)).toBe(`Arg: ${hostile}`);
    expect(expandCommand(command('One: $1'), "'$ARGUMENTS' x")).toBe('One: $ARGUMENTS');
  });
  it('a body without placeholders gets the arguments appended; none given, nothing appended', () => {
    expect(expandCommand(command('Run the tests.'), '--watch')).toBe('Run the tests.\n\nARGUMENTS: --watch');
    expect(expandCommand(command('Run the tests.'), '')).toBe('Run the tests.');
  });
  it('splits arguments at spaces, keeping quoted ones whole', () => {
    expect(splitArguments(`a "b c" 'd e' f`)).toEqual(['a', 'b c', 'd e', 'f']);
    expect(splitArguments('   ')).toEqual([]);
  });
});

describe('resolveSlashPrompt', () => {
  const commands = [command('Fix $ARGUMENTS'), command('custom compact', { name: 'compact' })];
  it('a built-in wins over a custom command of its name', () => {
    expect(resolveSlashPrompt('/compact keep tests', commands)).toEqual({
      kind: 'builtin',
      name: 'compact',
      args: 'keep tests',
    });
  });
  it('custom, unknown and plain', () => {
    const r = resolveSlashPrompt('/fix-issue 7', commands);
    expect(r.kind === 'custom' ? r.prompt : null).toBe('Fix 7');
    expect(resolveSlashPrompt('/nope', commands)).toEqual({ kind: 'unknown', name: 'nope' });
    expect(resolveSlashPrompt('hello', commands)).toEqual({ kind: 'plain' });
  });
});

describe('commandTurnModel', () => {
  it('an alias picks its model; none keeps the session model', () => {
    expect(commandTurnModel('claude-sonnet-4-5', { name: 'x', scope: 'project', model: 'haiku' })).toEqual({
      model: 'claude-haiku-4-5',
      notice: null,
    });
    expect(commandTurnModel('claude-sonnet-4-5', { name: 'x', scope: 'project', model: null }).model).toBe(
      'claude-sonnet-4-5',
    );
  });
  it("a project's command cannot pick a dearer model; the user's can; the demo stays", () => {
    const dear = commandTurnModel('claude-haiku-4-5', { name: 'x', scope: 'project', model: 'opus' });
    expect(dear.model).toBe('claude-haiku-4-5');
    expect(dear.notice).toMatch(/dearer/);
    expect(commandTurnModel('claude-haiku-4-5', { name: 'x', scope: 'user', model: 'opus' }).model).toBe(
      'claude-opus-4-5',
    );
    expect(commandTurnModel('demo', { name: 'x', scope: 'user', model: 'opus' }).model).toBe('demo');
  });
});
