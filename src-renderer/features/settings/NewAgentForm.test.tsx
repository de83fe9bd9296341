import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewAgentInput } from '@shared/ipc/contract/agent-files';
import { NewAgentForm, splitTools } from './NewAgentForm';

afterEach(cleanup);

describe('splitTools', () => {
  it('splits at commas outside parentheses and drops empty entries', () => {
    expect(splitTools(' Read, Grep ,, Bash(git log --oneline *, git diff *) ,')).toEqual([
      'Read',
      'Grep',
      'Bash(git log --oneline *, git diff *)',
    ]);
    expect(splitTools('   ')).toEqual([]);
  });
  it('keeps an unbalanced closing parenthesis from swallowing the rest', () => {
    expect(splitTools('Read), Grep')).toEqual(['Read)', 'Grep']);
  });
});

const view = {
  agents: [],
  problems: [],
  folders: { project: '/p/.claude/agents', user: '/home/me/.carapace/agents' },
};

describe('NewAgentForm', () => {
  it('sends what was typed as the create input, shows a refusal and keeps every field', async () => {
    const sent: Omit<NewAgentInput, 'projectId'>[] = [];
    render(
      <NewAgentForm
        view={view}
        onCancel={() => undefined}
        onCreate={(input) => {
          sent.push(input);
          return Promise.resolve('The agent name may not contain / or \\.');
        }}
      />,
    );
    const type = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    type('Name', '  a/b ');
    type('Description', 'Finds bugs');
    type('Tools', 'Read, Bash(git diff *, git log *)');
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'haiku' } });
    expect(screen.getByText('/p/.claude/agents')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'All my projects' }));
    expect(screen.getByText('/home/me/.carapace/agents')).toBeTruthy();
    type('Prompt', 'You find bugs.');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('may not contain /'));
    expect(sent).toEqual([
      {
        name: 'a/b',
        description: 'Finds bugs',
        tools: ['Read', 'Bash(git diff *, git log *)'],
        model: 'haiku',
        scope: 'user',
        prompt: 'You find bugs.',
      },
    ]);
    expect(screen.getByLabelText<HTMLTextAreaElement>('Prompt').value).toBe('You find bugs.');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('  a/b ');
  });

  it('leaves on Escape without closing what holds it', () => {
    let cancelled = 0;
    let reachedParent = 0;
    render(
      <div onKeyDown={() => reachedParent++}>
        <NewAgentForm view={view} onCancel={() => cancelled++} onCreate={() => Promise.resolve(null)} />
      </div>,
    );
    fireEvent.keyDown(screen.getByLabelText('Description'), { key: 'Escape' });
    expect(cancelled).toBe(1);
    expect(reachedParent).toBe(0);
  });
});
