import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DirectoryListing } from '@shared/domain/project';
import type { CarapaceClient } from '@shared/ipc/client';
import { setClient } from '../../ipc/client';
import { OpenProjectDialog } from './OpenProjectDialog';

/*
 * The Open project dialog's folder listing arrives after it is asked for. The e2e hooks-ui spec once
 * typed a path before the home folder's listing answered; the answer then replaced the typed path and
 * Open opened the home folder. These tests answer the listings by hand, in the order that raced.
 */

let answers: { input: unknown; resolve: (l: DirectoryListing) => void }[] = [];

const listing = (path: string): DirectoryListing => ({
  path,
  parent: null,
  directories: [{ name: 'src', path: `${path}/src` }],
  truncated: false,
});

beforeEach(() => {
  answers = [];
  setClient({
    invoke: (channel: string, input: unknown) => {
      if (channel !== 'fs.listDirectory') return Promise.reject(new Error(`unexpected ${channel}`));
      return new Promise<DirectoryListing>((resolve) => answers.push({ input, resolve }));
    },
    on: () => () => undefined,
    onConnection: () => () => undefined,
  } as unknown as CarapaceClient);
});

afterEach(() => cleanup());

const field = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Folder path' });

describe('Open project dialog', () => {
  it('a path typed before the starting folder is listed stays; the listing still shows', async () => {
    render(<OpenProjectDialog />);
    expect(answers).toHaveLength(1);
    fireEvent.change(field(), { target: { value: '/work/my-project' } });
    await act(async () => {
      answers[0]?.resolve(listing('/home/me'));
      await Promise.resolve();
    });
    expect(field().value).toBe('/work/my-project');
    expect(screen.getByRole('navigation', { name: 'Folders' }).textContent).toContain('src');
  });

  it('untouched, the field follows the listing; an older listing answering last is ignored', async () => {
    render(<OpenProjectDialog />);
    await act(async () => {
      answers[0]?.resolve(listing('/home/me'));
      await Promise.resolve();
    });
    expect(field().value).toBe('/home/me');
    // Two folders asked for in a row; the first answers last and must not win.
    fireEvent.click(screen.getByRole('button', { name: 'src' }));
    fireEvent.click(screen.getByRole('button', { name: 'Go to folder' }));
    expect(answers).toHaveLength(3);
    await act(async () => {
      answers[2]?.resolve(listing('/home/me/b'));
      await Promise.resolve();
    });
    await act(async () => {
      answers[1]?.resolve(listing('/home/me/a'));
      await Promise.resolve();
    });
    expect(field().value).toBe('/home/me/b');
  });
});
